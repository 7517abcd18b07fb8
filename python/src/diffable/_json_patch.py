"""diffable.json_patch: an RFC 6902 JSON Patch from one JSON document to another, whose arrays
are diffed by identity with the fewest moves."""
import math

__all__ = ["json_patch"]


def json_patch(old, new, *, key=None, path=""):
    """The JSON Patch (RFC 6902) that turns the JSON document `old` into `new`: a list of
    operations as dicts, ``{"op": "remove" | "add" | "move" | "replace", "path": ..., ...}``,
    to apply in order (with any RFC 6902 implementation, e.g. the ``jsonpatch`` package).

    Objects (dicts) are compared member by member: ``remove`` for a member gone, ``add`` for a
    new one, and the comparison goes on inside members present in both. Arrays are diffed by
    identity: elements that are in both arrays are found by their identifier and *moved*, never
    removed and added again, and the moves are the fewest possible (the elements off a longest
    run that kept its order); an element whose identifier is in both but whose value changed is
    compared further at its new place (``replace`` for a changed scalar). An element's identifier:

    - in an array of objects, ``key(element)`` when `key` is callable, ``element[key]`` when it
      is a str (a member name); without `key` (or when an element lacks that member) the array
      is compared position by position;
    - in an array of strs, or of ints, the element itself (strs compared as written: the diff
      is made in NFC, and two spellings of one text are then told apart by a ``replace``).

    An array whose identifiers repeat, or mix kinds, is compared position by position.
    ``path`` is a JSON Pointer (RFC 6901) prefixed to every operation's path, for a document that
    sits inside a larger one. Member names are escaped (``~`` as ``~0``, ``/`` as ``~1``).

    Values are compared as JSON: ``true`` is not ``1``; ``1`` and ``1.0`` are the same number.
    Documents are not copied: operations' values are the objects of `new`.

    Complexity: O(size of both documents) Python work plus, for every array diffed by identity,
    O(n + m) in C plus O(k log k) for its k moved-or-kept elements.

    >>> json_patch({"a": [1, 2, 3]}, {"a": [3, 1, 2]})
    [{'op': 'move', 'from': '/a/2', 'path': '/a/0'}]
    """
    operations = []
    _compare(old, new, key, path, operations)
    return operations


def _escape(name):
    """One JSON Pointer reference token (RFC 6901): ~ first, then /."""
    return str(name).replace("~", "~0").replace("/", "~1")


def _is_number(value):
    return type(value) in (int, float)


def _equal(a, b):
    """JSON equality: like == except that a bool equals only a bool. O(size)."""
    if a is b:
        return not (type(a) is float and math.isnan(a))
    ta, tb = type(a), type(b)
    if ta is dict:
        return tb is dict and len(a) == len(b) and all(k in b and _equal(v, b[k]) for k, v in a.items())
    if ta is list:
        return tb is list and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if ta is bool or tb is bool:
        return ta is tb and a == b
    if _is_number(a):
        return _is_number(b) and a == b
    return ta is tb and a == b


def _compare(old, new, key, path, operations):
    if type(old) is dict and type(new) is dict:
        _compare_objects(old, new, key, path, operations)
    elif type(old) is list and type(new) is list:
        _compare_arrays(old, new, key, path, operations)
    elif not _equal(old, new):
        # An object member named "-" is replaced with "add" (RFC 6902 4.1: add replaces an existing
        # member): "-" is an ordinary member name, but some implementations (jsonpatch among them)
        # refuse "replace" at any path ending in "-", the array end marker.
        op = "add" if path.endswith("/-") else "replace"
        operations.append({"op": op, "path": path, "value": new})


def _compare_objects(old, new, key, path, operations):
    for name in old:
        if name not in new:
            operations.append({"op": "remove", "path": f"{path}/{_escape(name)}"})
    for name, value in new.items():
        if name not in old:
            operations.append({"op": "add", "path": f"{path}/{_escape(name)}", "value": value})
        else:
            _compare(old[name], value, key, f"{path}/{_escape(name)}", operations)


_MISSING = object()


def _identifiers(items, key):
    """The elements' identifiers, or None when the array is to be compared by position."""
    if not items:
        return []
    kind = type(items[0])
    if kind is dict:
        if key is None or any(type(x) is not dict for x in items):
            return None
        if callable(key):
            found = [key(x) for x in items]
        else:
            found = [x.get(key, _MISSING) for x in items]
            if any(f is _MISSING for f in found):
                return None
        return found
    if kind in (str, int) and all(type(x) is kind for x in items):
        return items
    return None


def _compare_arrays(old, new, key, path, operations):
    from . import diff, DuplicateError  # the package imports this module first

    old_ids, new_ids = _identifiers(old, key), _identifiers(new, key)
    result = None
    if old_ids is not None and new_ids is not None:
        try:
            result = diff(old_ids, new_ids)
        except (DuplicateError, TypeError, ValueError, OverflowError):
            result = None  # repeated, mixed or unsupported identifiers: by position
    if result is None:
        _compare_positions(old, new, key, path, operations)
        return
    # The core's steps are RFC 6902's own semantics: a remove, move or add at an index valid in
    # the array the operations before it left (a move removes, then inserts at its target).
    for step in result.steps():
        if step[0] == "delete":
            operations.append({"op": "remove", "path": f"{path}/{step[1]}"})
        elif step[0] == "move":
            operations.append({"op": "move", "from": f"{path}/{step[1]}", "path": f"{path}/{step[2]}"})
        else:
            operations.append({"op": "add", "path": f"{path}/{step[1]}", "value": new[step[1]]})
    # The array now holds new's identifiers in new's order, with the old values of those kept:
    # each is compared with its new value at its final index.
    for j, o in enumerate(result.new_to_old.tolist()):
        if o >= 0 and old[o] is not new[j]:
            _compare(old[o], new[j], key, f"{path}/{j}", operations)


def _compare_positions(old, new, key, path, operations):
    common = min(len(old), len(new))
    for i in range(common):
        _compare(old[i], new[i], key, f"{path}/{i}", operations)
    for i in range(len(old) - 1, common - 1, -1):
        operations.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(common, len(new)):
        operations.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
