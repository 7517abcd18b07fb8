"""Steps (docs/ALGORITHM.md, "Steps") in plain Python, written from the specification with
list operations only: the state is a list of [section, [items]] that every step changes, and
each index is read off that state when the step is made. The C core finds the same indices
with a Fenwick tree; the fixtures pin that both agree.

A step is a JSON list: ["deleteItem", [s, i]], ["deleteSection", s], ["moveSection", from, to],
["insertSection", s], ["moveItem", [s, i], [t, j]], ["insertItem", [t, j]],
["reloadSection", s], ["reloadItem", [s, i]], ["reconfigureItem", [s, i]].
"""
import unicodedata


def _nfc(text):
    return unicodedata.normalize("NFC", text)


def _move_in_target_order(state_lists, target, moved, where):
    """Moves every element of `moved` once, in `target` order, to directly after the element
    that precedes it in `target` (the front when none does). `state_lists(group)` is the group's
    current list; `target` is [(group, [elements])]; `where(element)` its (group, index) now.
    Yields (from_group, from_index, to_group, to_index)."""
    for group, elements in target:
        previous = None
        for element in elements:
            if element in moved:
                from_group, from_index = where(element)
                state_lists(from_group).pop(from_index)
                destination = state_lists(group)
                to_index = 0 if previous is None else destination.index(previous) + 1
                destination.insert(to_index, element)
                yield from_group, from_index, group, to_index
            previous = element


def steps(old, new, batches):
    """The steps of a diff's batches (a structural batch, then a refresh batch), replayed on the
    old snapshot as they are made; raises AssertionError unless they end at the new snapshot."""
    state = [[_nfc(s["id"]), [_nfc(i) for i in s["items"]]] for s in old["sections"]]
    final = [[_nfc(s["id"]), [_nfc(i) for i in s["items"]]] for s in new["sections"]]
    out = []
    for batch in batches:
        structural = any(batch[k] for k in ("deleteSections", "insertSections", "moveSections",
                                            "deleteItems", "insertItems", "moveItems"))
        if not structural:
            out += [["reloadSection", s] for s in sorted(set(batch["reloadSections"]))]
            out += [["reloadItem", list(p)] for p in sorted({tuple(p) for p in batch["reloadItems"]})]
            out += [["reconfigureItem", list(p)] for p in sorted({tuple(p) for p in batch["reconfigureItems"]})]
            continue
        deleted_sections = set(batch["deleteSections"])
        inserted_sections = set(batch["insertSections"])
        moved_sections = {state[a][0] for a, _ in batch["moveSections"]}
        moved_items = {state[s][1][i] for (s, i), _ in batch["moveItems"]}
        inserted_items = {tuple(p) for p in batch["insertItems"] if p[0] not in inserted_sections}
        # 1. item deletes outside deleted sections, last first
        for s, i in sorted((tuple(p) for p in batch["deleteItems"] if p[0] not in deleted_sections), reverse=True):
            out.append(["deleteItem", [s, i]])
            del state[s][1][i]
        # 2. section deletes, last first
        for s in sorted(deleted_sections, reverse=True):
            out.append(["deleteSection", s])
            del state[s]
        # 3. section moves: survivors in new order, the moved ones placed after their predecessor
        order = [name for name, _ in state]
        survivors_target = [final[t][0] for t in range(len(final)) if t not in inserted_sections]
        for _, a, _, b in _move_in_target_order(lambda _: order, [(0, survivors_target)], moved_sections,
                                                lambda name: (0, order.index(name))):
            out.append(["moveSection", a, b])
            state.insert(b, state.pop(a))
        # 4. section inserts, first first, with all their items
        for t in sorted(inserted_sections):
            out.append(["insertSection", t])
            state.insert(t, [final[t][0], list(final[t][1])])
        # 5. item moves: per new section, its rows in final order without the inserted ones
        assert [name for name, _ in state] == [name for name, _ in final], "sections out of order after step 4"
        target = [(t, [item for j, item in enumerate(final[t][1]) if (t, j) not in inserted_items])
                  for t in range(len(final)) if t not in inserted_sections]

        def where(item):
            for s, (_, items) in enumerate(state):
                if item in items:
                    return s, items.index(item)
            raise AssertionError(f"moved item {item!r} is not shown")

        for s, i, t, j in _move_in_target_order(lambda g: state[g][1], target, moved_items, where):
            out.append(["moveItem", [s, i], [t, j]])
        # 6. item inserts, first first
        for t, j in sorted(inserted_items):
            out.append(["insertItem", [t, j]])
            state[t][1].insert(j, final[t][1][j])
        # 7. reconfigures of a structural batch, at final positions
        out += [["reconfigureItem", list(p)] for p in sorted({tuple(p) for p in batch["reconfigureItems"]})]
    assert state == final, "the steps do not end at the new snapshot"
    return out
