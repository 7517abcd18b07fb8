"""Fixture documents through the diffable package: its results in the fixtures' `expect` format,
and its sequential steps replayed on the old rows."""
import diffable
from reference import BATCH_KEYS, nfc

CAMEL = {"reload_items": "reloadItems", "reconfigure_items": "reconfigureItems", "reload_sections": "reloadSections"}


def _snapshot(document):
    return [(s["id"], s["items"]) for s in document["sections"]]


def _refresh(document):
    return {"reload_items": document.get("reloadItems", []), "reconfigure_items": document.get("reconfigureItems", []),
            "reload_sections": document.get("reloadSections", [])}


def _batch(batch):
    return {
        "deleteSections": batch.delete_sections, "insertSections": batch.insert_sections,
        "moveSections": [list(m) for m in batch.move_sections], "reloadSections": batch.reload_sections,
        "deleteItems": [list(p) for p in batch.delete_items], "insertItems": [list(p) for p in batch.insert_items],
        "moveItems": [[list(a), list(b)] for a, b in batch.move_items],
        "reloadItems": [list(p) for p in batch.reload_items],
        "reconfigureItems": [list(p) for p in batch.reconfigure_items],
    }


STEP_NAMES = {"delete_item": "deleteItem", "delete_section": "deleteSection", "move_section": "moveSection",
              "insert_section": "insertSection", "move_item": "moveItem", "insert_item": "insertItem",
              "reload_section": "reloadSection", "reload_item": "reloadItem", "reconfigure_item": "reconfigureItem"}
FLAT_STEP_NAMES = {"delete": "deleteItem", "move": "moveItem", "insert": "insertItem"}


def _step(step):
    """A package step in the fixtures' form: camelCase kind, index paths as lists."""
    kind, *args = step
    return [STEP_NAMES[kind]] + [list(a) if isinstance(a, tuple) else a for a in args]


def _flat_step(step):
    kind, *indices = step
    return [FLAT_STEP_NAMES[kind]] + [[0, i] for i in indices]


def expect(old, new):
    """The fixture `expect` object computed by diffable.diff_sections."""
    try:
        result = diffable.diff_sections(_snapshot(old), _snapshot(new), **_refresh(new))
    except diffable.DuplicateError as error:
        kind = "duplicateSection" if error.kind == "section" else "duplicateItem"
        return {"error": {"kind": kind, "snapshot": error.snapshot, "identifiers": error.identifiers,
                          "positions": error.positions}}
    except diffable.UnknownIdentifierError as error:
        return {"error": {"kind": "unknownIdentifier", "snapshot": error.snapshot, "list": CAMEL[error.list],
                          "identifiers": error.identifiers, "positions": error.positions}}
    return {"batches": [_batch(b) for b in result.batches], "steps": [_step(s) for s in result.steps()]}


def is_flat(fixture):
    """Both snapshots one section with the same identifier and nothing to refresh: a flat diff."""
    old, new = fixture["old"], fixture["new"]
    if "outline" in old:
        return True
    return (len(old["sections"]) == 1 and len(new["sections"]) == 1 and old["sections"][0]["id"] == new["sections"][0]["id"]
            and not any(_refresh(new).values()))


def _rows(document):
    if "outline" in document:
        from outline import rows_document
        document = rows_document(document)
    return document["sections"][0]["items"]


def expect_flat(old, new):
    """The fixture `expect` object of a one-section fixture computed by diffable.diff."""
    try:
        result = diffable.diff(_rows(old), _rows(new))
    except diffable.DuplicateError as error:
        return {"error": {"kind": "duplicateItem", "snapshot": error.snapshot, "identifiers": error.identifiers,
                          "positions": [[[0, p] for p in positions] for positions in error.positions]}}
    batch = {key: [] for key in BATCH_KEYS}
    batch["deleteItems"] = [[0, i] for i in result.deletes.tolist()]
    batch["insertItems"] = [[0, j] for j in result.inserts.tolist()]
    batch["moveItems"] = [[[0, a], [0, b]] for a, b in zip(result.move_from.tolist(), result.move_to.tolist())]
    return {"batches": [batch] if any(batch.values()) else [], "steps": [_flat_step(s) for s in result.steps()]}


def shown(document):
    """What a view shows for a snapshot: [(section, [items])], identifiers in NFC."""
    return [(nfc(s["id"]), [nfc(i) for i in s["items"]]) for s in document["sections"]]


def replay_steps(old, new):
    """Applies diff_sections' steps one at a time to the old rows; every index must be valid
    when its step runs (an IndexError otherwise). Returns the rows shown at the end."""
    state = [[section, list(items)] for section, items in shown(old)]
    target = shown(new)
    for step in diffable.diff_sections(_snapshot(old), _snapshot(new), **_refresh(new)).steps():
        kind, *args = step
        if kind == "delete_item":
            (s, i), = args
            assert 0 <= s < len(state) and 0 <= i < len(state[s][1]), step
            del state[s][1][i]
        elif kind == "delete_section":
            assert 0 <= args[0] < len(state), step
            del state[args[0]]
        elif kind == "move_section":
            moved = state.pop(args[0])
            assert 0 <= args[1] <= len(state), step
            state.insert(args[1], moved)
        elif kind == "insert_section":
            assert 0 <= args[0] <= len(state), step
            state.insert(args[0], [target[args[0]][0], list(target[args[0]][1])])
        elif kind == "move_item":
            (s, i), (t, j) = args
            moved = state[s][1].pop(i)
            assert 0 <= j <= len(state[t][1]), step
            state[t][1].insert(j, moved)
        elif kind == "insert_item":
            (t, j), = args
            assert 0 <= j <= len(state[t][1]), step
            state[t][1].insert(j, target[t][1][j])
        elif kind == "reload_section":
            assert 0 <= args[0] < len(state), step
        else:  # reload_item, reconfigure_item: the row exists and is the new one at its final place
            (s, i), = args
            assert state[s][1][i] == target[s][1][i], step
    return [(section, items) for section, items in state]


def replay_flat(old, result, new):
    """Applies a flat diff's steps() to a copy of old, checking every index when its step runs."""
    rows = list(old)
    for step in result.steps():
        if step[0] == "delete":
            assert 0 <= step[1] < len(rows), step
            del rows[step[1]]
        elif step[0] == "move":
            moved = rows.pop(step[1])
            assert 0 <= step[2] <= len(rows), step
            rows.insert(step[2], moved)
        else:
            assert 0 <= step[1] <= len(rows), step
            rows.insert(step[1], new[step[1]])
    return rows
