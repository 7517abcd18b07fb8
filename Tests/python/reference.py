"""An independent implementation of docs/ALGORITHM.md in plain Python (standard library only).

It is written from the specification, not from the C or Swift code, so that the
fixtures prove three implementations agree. Snapshots are fixture documents:
{"sections": [{"id": str, "items": [str]}], "reloadItems": [...], "reconfigureItems": [...],
"reloadSections": [...]}. Identifiers compare by their NFC form.
"""
import unicodedata

from reference_steps import steps

BATCH_KEYS = ("deleteSections", "insertSections", "moveSections", "reloadSections",
              "deleteItems", "insertItems", "moveItems", "reloadItems", "reconfigureItems")


def nfc(text):
    return unicodedata.normalize("NFC", text)


def empty_batch():
    return {key: [] for key in BATCH_KEYS}


def lis_positions(sequence):
    """Positions of the longest increasing subsequence, with ALGORITHM.md's tie-break."""
    tails, previous = [], [-1] * len(sequence)
    for j, value in enumerate(sequence):
        low, high = 0, len(tails)
        while low < high:  # first k with sequence[tails[k]] > value
            middle = (low + high) // 2
            if sequence[tails[middle]] > value:
                high = middle
            else:
                low = middle + 1
        previous[j] = tails[low - 1] if low > 0 else -1
        if low == len(tails):
            tails.append(j)
        else:
            tails[low] = j
    keep, j = set(), (tails[-1] if tails else -1)
    while j != -1:
        keep.add(j)
        j = previous[j]
    return keep


def validate(document, side):
    """The ALGORITHM.md error object for the first problem of one snapshot, or None."""
    sections = document["sections"]
    positions, order = {}, []
    for index, section in enumerate(sections):
        key = nfc(section["id"])
        if key not in positions:
            positions[key] = []
            order.append(section["id"])
        positions[key].append([index])
    repeated = [name for name in order if len(positions[nfc(name)]) > 1]
    if repeated:
        return {"kind": "duplicateSection", "snapshot": side, "identifiers": repeated,
                "positions": [positions[nfc(name)] for name in repeated]}
    item_positions, item_order = {}, []
    for s, section in enumerate(sections):
        for i, item in enumerate(section["items"]):
            key = nfc(item)
            if key not in item_positions:
                item_positions[key] = []
                item_order.append(item)
            item_positions[key].append([s, i])
    repeated = [name for name in item_order if len(item_positions[nfc(name)]) > 1]
    if repeated:
        return {"kind": "duplicateItem", "snapshot": side, "identifiers": repeated,
                "positions": [item_positions[nfc(name)] for name in repeated]}
    for list_name, known in (("reloadItems", item_positions), ("reconfigureItems", item_positions),
                             ("reloadSections", positions)):
        unknown, unknown_order = {}, []
        for index, value in enumerate(document.get(list_name, [])):
            if nfc(value) in known:
                continue
            if nfc(value) not in unknown:
                unknown[nfc(value)] = []
                unknown_order.append(value)
            unknown[nfc(value)].append([index])
        if unknown_order:
            return {"kind": "unknownIdentifier", "snapshot": side, "list": list_name,
                    "identifiers": unknown_order, "positions": [unknown[nfc(v)] for v in unknown_order]}
    return None


def diff(old, new):
    """The fixture `expect` object: {"batches": [...], "steps": [...]} or {"error": {...}}."""
    error = validate(old, "old") or validate(new, "new")
    if error:
        return {"error": error}
    old_sections = [nfc(s["id"]) for s in old["sections"]]
    new_sections = [nfc(s["id"]) for s in new["sections"]]
    old_items = [[nfc(i) for i in s["items"]] for s in old["sections"]]
    new_items = [[nfc(i) for i in s["items"]] for s in new["sections"]]
    old_section_index = {name: o for o, name in enumerate(old_sections)}
    new_section_index = {name: t for t, name in enumerate(new_sections)}
    old_where = {item: (o, i) for o, items in enumerate(old_items) for i, item in enumerate(items)}
    new_where = {item: (t, j) for t, items in enumerate(new_items) for j, item in enumerate(items)}

    # Step 1: sections.
    gone = {o for o, name in enumerate(old_sections) if name not in new_section_index}
    fresh = {t for t, name in enumerate(new_sections) if name not in old_section_index}
    surviving = [t for t in range(len(new_sections)) if t not in fresh]
    kept = lis_positions([old_section_index[new_sections[t]] for t in surviving])
    moved = {t for k, t in enumerate(surviving) if k not in kept}

    # Step 2: the LIS of each surviving section over its items that stay in it.
    stays = set()
    for t in surviving:
        o = old_section_index[new_sections[t]]
        same = [item for item in new_items[t] if item in old_where and old_where[item][0] == o]
        keep = lis_positions([old_where[item][1] for item in same])
        stays.update(item for k, item in enumerate(same) if k in keep)

    def operation(item):
        """'delete', 'insert', 'move', 'delete+insert' or None for an item in both snapshots."""
        (o, _), (t, _) = old_where[item], new_where[item]
        if o in gone and t in fresh:
            return None
        if o in gone:
            return "insert"
        if t in fresh:
            return "delete"
        if old_sections[o] != new_sections[t]:
            return "delete+insert" if o == t else "move"
        return None if item in stays else "move"

    # Step 3: a moved section touched by an item operation becomes delete + insert.
    while True:
        touched = set()

        def touch_old(o):
            if old_sections[o] in new_section_index:
                touched.add(new_section_index[old_sections[o]])

        for item, (o, _) in old_where.items():
            if item not in new_where and o not in gone:
                touch_old(o)
        for item, (t, _) in new_where.items():
            if item not in old_where:
                if t not in fresh:
                    touched.add(t)
                continue
            op = operation(item)
            if op in ("delete", "move", "delete+insert"):
                touch_old(old_where[item][0])
            if op in ("insert", "move", "delete+insert"):
                touched.add(t)
        converting = moved & touched
        if not converting:
            break
        for t in converting:
            moved.discard(t)
            fresh.add(t)
            gone.add(old_section_index[new_sections[t]])

    structural = empty_batch()
    structural["deleteSections"] = sorted(gone)
    structural["insertSections"] = sorted(fresh)
    structural["moveSections"] = [[old_section_index[new_sections[t]], t] for t in sorted(moved)]
    deletes, inserts, moves = [], [], []
    for item, (o, i) in old_where.items():
        if item not in new_where:
            if o not in gone:
                deletes.append([o, i])
        elif operation(item) in ("delete", "delete+insert"):
            deletes.append([o, i])
    refreshed_fresh = set()
    for item, (t, j) in new_where.items():
        op = "insert" if item not in old_where and t not in fresh else (None if item not in old_where else operation(item))
        if op in ("insert", "delete+insert"):
            inserts.append([t, j])
            refreshed_fresh.add(item)
        elif op == "move":
            moves.append([list(old_where[item]), [t, j]])
    structural["deleteItems"] = sorted(deletes)
    structural["insertItems"] = sorted(inserts)
    structural["moveItems"] = sorted(moves, key=lambda move: move[1])

    # Step 4: the refresh batch at final positions.
    refresh = empty_batch()
    reloaded_sections = {new_section_index[nfc(s)] for s in new.get("reloadSections", [])}
    refresh["reloadSections"] = sorted(t for t in reloaded_sections if t not in fresh)
    reload_items = {nfc(i) for i in new.get("reloadItems", [])}
    reconfigure_items = {nfc(i) for i in new.get("reconfigureItems", [])} - reload_items
    for name, wanted in (("reloadItems", reload_items), ("reconfigureItems", reconfigure_items)):
        paths = []
        for item in wanted:
            t, j = new_where[item]
            if t in fresh or item in refreshed_fresh or t in reloaded_sections:
                continue
            paths.append([t, j])
        refresh[name] = sorted(paths)

    batches = []
    if any(structural[key] for key in BATCH_KEYS):
        batches.append(structural)
    if any(refresh[key] for key in BATCH_KEYS):
        batches.append(refresh)
    return {"batches": batches, "steps": steps(old, new, batches)}
