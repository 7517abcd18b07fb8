"""diffable.json_patch: every patch is applied by an independent RFC 6902 implementation (the
jsonpatch package) and must give the new document exactly (JSON equality: true is not 1); arrays
diffed by identity take the fewest moves (matched - LIS); member names with / and ~ are escaped."""
import bisect
import copy
import json
import random

import pytest

import diffable

jsonpatch = pytest.importorskip("jsonpatch")


def strict(value):
    """A form in which == is JSON equality (bools apart from numbers, 1 == 1.0)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, dict):
        return ("object", {k: strict(v) for k, v in value.items()})
    if isinstance(value, list):
        return ("array", [strict(v) for v in value])
    return (type(value).__name__, value)


def check(old, new, **options):
    before = copy.deepcopy(old)
    patch = diffable.json_patch(old, new, **options)
    assert old == before, "json_patch changed its input"
    json.dumps(patch)  # plain JSON
    for operation in patch:
        assert operation["op"] in ("remove", "add", "move", "replace")
    got = jsonpatch.apply_patch(old, patch)
    assert strict(got) == strict(new), (old, new, patch)
    return patch


def fewest_moves(old_ids, new_ids):
    """matched - LIS, in plain Python."""
    where = {x: i for i, x in enumerate(old_ids)}
    run = []
    for x in new_ids:
        if x in where:
            k = bisect.bisect_left(run, where[x])
            run[k:k + 1] = [where[x]]
    return len(set(old_ids) & set(new_ids)) - len(run)


def test_examples():
    assert diffable.json_patch({"a": [1, 2, 3]}, {"a": [3, 1, 2]}) == [{"op": "move", "from": "/a/2", "path": "/a/0"}]
    assert diffable.json_patch(1, 2) == [{"op": "replace", "path": "", "value": 2}]
    assert diffable.json_patch({"x": 1}, {"x": 1}) == []
    old = [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}]
    new = [{"id": 3, "v": "C"}, {"id": 1, "v": "a"}, {"id": 4}]
    patch = check(old, new, key="id")
    assert [op["op"] for op in patch] == ["remove", "move", "add", "replace"]
    assert patch[-1] == {"op": "replace", "path": "/0/v", "value": "C"}
    assert check(old, new, key=lambda row: row["id"]) == patch
    # Without a key an array of objects is compared by position.
    assert all(op["op"] != "move" for op in check(old, new))


def test_member_names_are_escaped():
    old = {"a/b": 1, "m~n": {"~/": [1, 2]}, "": 0, "-": 5, "~1": "x"}
    new = {"a/b": 2, "m~n": {"~/": [2, 1]}, "": 1, "/": 3, "~1": "y"}
    patch = check(old, new)
    paths = {op["path"] for op in patch}
    assert {"/a~1b", "/m~0n/~0~1/0", "/", "/~1", "/~01", "/-"} <= paths


def test_json_equality_is_strict():
    assert check({"a": True}, {"a": 1}) == [{"op": "replace", "path": "/a", "value": 1}]
    assert check([0], [False]) == [{"op": "replace", "path": "/0", "value": False}]
    assert check({"a": 1}, {"a": 1.0}) == []  # one JSON number
    assert check({"a": [True, 1]}, {"a": [1, True]})
    assert check({"a": None}, {"a": {}}) == [{"op": "replace", "path": "/a", "value": {}}]


def test_hostile_arrays_fall_back_to_positions():
    check([1, 1, 2], [2, 1, 1])  # repeated identifiers
    check([1, "1", 2.5], ["1", 1])  # mixed kinds
    check([2**70, 1], [1, 2**70])  # beyond 64 bits
    check(["café", "cafe\u0301"], ["cafe\u0301", "café"])  # one identifier in NFC, two strs
    check([{"id": 1}, {"name": 2}], [{"name": 2}, {"id": 1}], key="id")  # a key missing
    check([{"id": 1}, 3], [3, {"id": 1}], key="id")  # not all objects
    check([[1, 2], [3]], [[3], [2, 1]])  # arrays of arrays
    check([{"id": [1]}], [{"id": [1], "v": 2}], key="id")  # unhashable identifiers
    check([], [{"id": 1}], key="id")
    check([{"id": 1}], [], key="id")


def test_nfc_spellings_are_told_apart_by_replace():
    patch = check(["x", "café"], ["cafe\u0301", "x"])
    assert {"op": "replace", "path": "/0", "value": "cafe\u0301"} in patch


def test_path_prefix():
    patch = diffable.json_patch([1, 2], [2, 1], path="/doc/list")
    assert patch == [{"op": "move", "from": "/doc/list/1", "path": "/doc/list/0"}]
    assert jsonpatch.apply_patch({"doc": {"list": [1, 2]}}, patch) == {"doc": {"list": [2, 1]}}


def test_moved_and_changed_elements():
    old = [{"id": k, "v": k} for k in range(10)]
    new = [dict(x) for x in reversed(old)]
    new[0]["v"] = "changed"
    del new[5]["v"]
    new[7]["w"] = {"deep": [1, 2]}
    patch = check(old, new, key="id")
    assert sum(op["op"] == "move" for op in patch) == 9


def random_value(rng, depth):
    roll = rng.random()
    if depth > 2 or roll < 0.4:
        return rng.choice([0, 1, 1.5, True, False, None, "a", "b/c", "~", "", "é", 2**40])
    if roll < 0.6:
        return {rng.choice(["a", "b", "c/d", "e~f", "", "-"]): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if roll < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return [{"id": i, "v": random_value(rng, depth + 1)} for i in rng.sample(range(8), rng.randint(0, 6))]


def mutate(rng, value, depth=0):
    if isinstance(value, dict):
        out = {k: mutate(rng, v, depth + 1) for k, v in value.items() if rng.random() > 0.2}
        if rng.random() < 0.3:
            out[rng.choice(["a", "x/y", "z~"])] = random_value(rng, depth + 1)
        return out
    if isinstance(value, list):
        out = [mutate(rng, v, depth + 1) for v in value if rng.random() > 0.2]
        rng.shuffle(out)
        if rng.random() < 0.3:
            out.insert(rng.randint(0, len(out)), random_value(rng, depth + 1))
        return out
    return value if rng.random() < 0.7 else random_value(rng, depth)


@pytest.mark.parametrize("seed", range(300))
def test_random_documents(seed):
    rng = random.Random(seed)
    old = random_value(rng, 0)
    new = mutate(rng, old)
    check(old, new)
    check(old, new, key="id")


@pytest.mark.parametrize("seed", range(100))
def test_random_keyed_arrays_take_the_fewest_moves(seed):
    rng = random.Random(seed)
    ids = rng.sample(range(1000), rng.randint(0, 60))
    old = [{"id": i, "name": f"n/{i}~", "v": rng.randint(0, 3)} for i in ids]
    new = [dict(x, v=rng.randint(0, 3)) for x in old if rng.random() > 0.2]
    rng.shuffle(new) if rng.random() < 0.5 else None
    for _ in range(rng.randint(0, 5)):
        new.insert(rng.randint(0, len(new)), {"id": 1000 + rng.randint(0, 10**6), "v": 0})
    new = list({x["id"]: x for x in new}.values())
    patch = check(old, new, key="id")
    moves = sum(op["op"] == "move" for op in patch)
    assert moves == fewest_moves([x["id"] for x in old], [x["id"] for x in new])
    # Ids as the array itself (strs with / and ~ in them).
    names_old, names_new = [x["name"] for x in old], [f"n/{x['id']}~" for x in new]
    patch = check(names_old, names_new)
    assert sum(op["op"] == "move" for op in patch) == fewest_moves(names_old, names_new)


def test_every_operation_is_valid_where_it_runs():
    # Applied one by one: each path must exist (remove, move, replace) when its operation runs.
    rng = random.Random(5)
    old = [{"id": i, "v": i} for i in range(50)]
    new = [dict(x, v=-x["v"]) if x["id"] % 7 == 0 else x for x in old if x["id"] % 5]
    rng.shuffle(new)
    document = copy.deepcopy(old)
    for operation in diffable.json_patch(old, new, key="id"):
        document = jsonpatch.apply_patch(document, [operation])
    assert document == new
