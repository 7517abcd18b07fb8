"""The outline form of a fixture snapshot (docs/FIXTURES.md), in plain Python.

An outline document is {"outline": [{"id": str, "parent": str (optional), "expanded": bool
(optional, false)}]}: entries in any order, siblings in the order they appear. Its rows are the
visible items (every ancestor expanded) in depth-first order; an outline fixture's `expect` is
the flat diff of those rows as one section. Written from the spec, not from the C or Swift code.
"""
from reference import diff, nfc

# The one section the visible rows of an outline are diffed in (any name works: both sides share it).
ROWS_SECTION = "0"


def is_outline(document):
    return "outline" in document


def _groups(pairs):
    """[(identifier as first written, [[index], ...])] in order of first occurrence, keyed by NFC."""
    order, positions = [], {}
    for value, index in pairs:
        key = nfc(value)
        if key not in positions:
            positions[key] = []
            order.append(value)
        positions[key].append([index])
    return [(value, positions[nfc(value)]) for value in order]


def _error(kind, side, groups):
    return {"kind": kind, "snapshot": side, "identifiers": [g[0] for g in groups],
            "positions": [g[1] for g in groups]}


def validate_outline(document, side):
    """The error object for the first kind of problem (duplicates, unknown parents, cycles), or None."""
    entries = document["outline"]
    repeated = [g for g in _groups((e["id"], k) for k, e in enumerate(entries)) if len(g[1]) > 1]
    if repeated:
        return _error("duplicateItem", side, repeated)
    known = {nfc(e["id"]): k for k, e in enumerate(entries)}
    unknown = _groups((e["parent"], k) for k, e in enumerate(entries)
                      if e.get("parent") is not None and nfc(e["parent"]) not in known)
    if unknown:
        return _error("unknownParent", side, unknown)
    parent_of = [known[nfc(e["parent"])] if e.get("parent") is not None else -1 for e in entries]
    on_cycle = set()
    state = [0] * len(entries)  # 0 unseen, 1 on the current path, 2 done
    for start in range(len(entries)):
        path, node = [], start
        while node != -1 and state[node] == 0:
            state[node] = 1
            path.append(node)
            node = parent_of[node]
        if node != -1 and state[node] == 1:  # the walk came back to itself
            on_cycle.update(path[path.index(node):])
        for visited in path:
            state[visited] = 2
    if on_cycle:
        return _error("cycle", side, [(entries[k]["id"], [[k]]) for k in sorted(on_cycle)])
    return None


def visible_rows(document):
    """The visible items of a valid outline, depth first, as first written."""
    entries = document["outline"]
    index = {nfc(e["id"]): k for k, e in enumerate(entries)}
    children = {k: [] for k in range(-1, len(entries))}
    for k, entry in enumerate(entries):
        parent = entry.get("parent")
        children[index[nfc(parent)] if parent is not None else -1].append(k)
    rows, stack = [], list(reversed(children[-1]))
    while stack:
        k = stack.pop()
        rows.append(entries[k]["id"])
        if entries[k].get("expanded", False):
            stack.extend(reversed(children[k]))
    return rows


def rows_document(document):
    """The flat one-section snapshot document of an outline's visible rows."""
    return {"sections": [{"id": ROWS_SECTION, "items": visible_rows(document)}]}


def outline_diff(old, new):
    """The fixture `expect` object of two outlines: an error, or the diff of their visible rows."""
    error = validate_outline(old, "old") or validate_outline(new, "new")
    if error:
        return {"error": error}
    return diff(rows_document(old), rows_document(new))


def expect(old, new):
    """A fixture's `expect`, whichever form its snapshots have."""
    return outline_diff(old, new) if is_outline(old) else diff(old, new)
