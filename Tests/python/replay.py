"""A replay checker for batches (docs/BATCH_UPDATE_RULES.md, V0–V9: the parts a diff can reach).

`replay(old, batches, new)` applies each batch to the old document with UIKit's
semantics (deletes, reloads and move sources in the old space; inserts and move
targets in the new; untouched rows keep their order) and returns a list of
problems: count mismatches, operations UIKit forbids or mishandles (items in
deleted, inserted or moved sections, collisions), a final state that is not the
new snapshot, and refresh requests left unrefreshed. An empty list means valid.
"""
from reference import nfc


def _rows(document):
    return [nfc(s["id"]) for s in document["sections"]], [[nfc(i) for i in s["items"]] for s in document["sections"]]


def replay(old, batches, new):
    problems = []
    sections, rows = _rows(old)
    new_sections, new_rows = _rows(new)
    refreshed = set()
    for number, batch in enumerate(batches):
        where = f"batch {number + 1}"
        m, n = len(sections), len(new_sections)
        old_counts, new_counts = [len(r) for r in rows], [len(r) for r in new_rows]
        structural = any(batch[k] for k in ("deleteSections", "insertSections", "moveSections",
                                            "deleteItems", "insertItems", "moveItems"))
        if structural and (batch["reloadItems"] or batch["reconfigureItems"] or batch["reloadSections"]):
            problems.append(f"{where}: refreshes mixed with structural changes")
        deleted_s, inserted_s = set(batch["deleteSections"]), set(batch["insertSections"])
        move_from = {a: b for a, b in batch["moveSections"]}
        move_to = {b: a for a, b in batch["moveSections"]}
        if any(s >= m for s in deleted_s) or any(s >= n for s in inserted_s):
            problems.append(f"{where}: section index out of range")
            return problems
        if n != m - len(deleted_s) + len(inserted_s):
            problems.append(f"{where}: section count {n} != {m} - {len(deleted_s)} + {len(inserted_s)}")
            return problems
        deletes = {tuple(p) for p in batch["deleteItems"]}
        inserts = {tuple(p) for p in batch["insertItems"]}
        moves = [(tuple(a), tuple(b)) for a, b in batch["moveItems"]]
        for s, _ in deletes:
            if s in deleted_s or s in move_from:
                problems.append(f"{where}: item delete in a deleted or moved section {s}")
        for s, _ in inserts:
            if s in inserted_s or s in move_to:
                problems.append(f"{where}: item insert in an inserted or moved section {s}")
        for a, b in moves:
            if a[0] in deleted_s or b[0] in inserted_s or a[0] in move_from or b[0] in move_to:
                problems.append(f"{where}: item move {a}->{b} touches a deleted, inserted or moved section")
            if a in deletes or b in inserts:
                problems.append(f"{where}: move {a}->{b} collides with a delete or insert")
        if len({a for a, _ in moves}) != len(moves) or len({b for _, b in moves}) != len(moves):
            problems.append(f"{where}: repeated move source or target")
        # B6 section map: moved -> target; others fill the free new indices in order.
        free = iter(t for t in range(n) if t not in inserted_s and t not in move_to)
        section_map = {}
        for o in range(m):
            if o in deleted_s:
                continue
            section_map[o] = move_from[o] if o in move_from else next(free)
        inverse = {t: o for o, t in section_map.items()}
        for o, t in section_map.items():
            moved_in = sum(1 for a, b in moves if b[0] == t and a[0] != b[0])
            moved_out = sum(1 for a, b in moves if a[0] == o and a[0] != b[0])
            expected = old_counts[o] - sum(1 for s, _ in deletes if s == o) + sum(1 for s, _ in inserts if s == t) \
                + moved_in - moved_out
            if expected != new_counts[t]:
                problems.append(f"{where}: section {t} count {new_counts[t]} != {expected}")
                return problems
        leaving = deletes | {a for a, _ in moves}
        targets = {b: a for a, b in moves}
        result = []
        for t in range(n):
            if t in inserted_s:
                result.append(list(new_rows[t]))
                refreshed.update(new_rows[t])
                continue
            o = inverse[t]
            if sections[o] != new_sections[t]:
                problems.append(f"{where}: section {t} shows old section {sections[o]!r}")
            carried = iter(item for i, item in enumerate(rows[o]) if (o, i) not in leaving)
            laid = []
            for j in range(new_counts[t]):
                if (t, j) in targets:
                    a = targets[(t, j)]
                    laid.append(rows[a[0]][a[1]])
                elif (t, j) in inserts:
                    laid.append(new_rows[t][j])
                    refreshed.add(new_rows[t][j])
                else:
                    laid.append(next(carried, None))
            result.append(laid)
        for s in batch["reloadSections"]:
            refreshed.update(result[s])
        for s, i in batch["reloadItems"] + batch["reconfigureItems"]:
            refreshed.add(result[s][i])
        sections, rows = list(new_sections), result
    if rows != new_rows or sections != new_sections:
        problems.append("the replayed rows are not the new snapshot")
    for item in new.get("reloadItems", []) + new.get("reconfigureItems", []):
        if nfc(item) not in refreshed:
            problems.append(f"item {item!r} was not refreshed")
    return problems
