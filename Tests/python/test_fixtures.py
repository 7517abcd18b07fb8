"""Every fixture through the Python reference, the replay checker and the diffable package (the C core)."""
import json
import pathlib
import subprocess
import sys
import unicodedata

import jsonschema
import pytest
import xxhash

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import via_package  # noqa: E402
from outline import expect, is_outline, rows_document, validate_outline, visible_rows  # noqa: E402
from reference import lis_positions  # noqa: E402
from replay import replay  # noqa: E402

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures"
PATHS = sorted(FIXTURES.glob("*/*.json"))
SCHEMA = json.loads((FIXTURES / "fixture.schema.json").read_text())


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def rows(document):
    """The flat form the diff sees: an outline's visible rows as one section, a snapshot as it is."""
    return rows_document(document) if is_outline(document) else document


def test_there_are_enough_fixtures():
    assert len(PATHS) >= 100
    assert len(list(FIXTURES.glob("hand/*.json"))) >= 30
    outlines = [p for p in PATHS if is_outline(load(p)["old"])]
    assert len([p for p in outlines if p.parent.name == "generated"]) >= 50
    assert len([p for p in outlines if p.parent.name == "hand"]) >= 20


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_schema(path):
    fixture = load(path)
    jsonschema.validate(fixture, SCHEMA)
    assert fixture["name"] == path.stem


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_reference_gives_the_expected_output(path):
    fixture = load(path)
    assert expect(fixture["old"], fixture["new"]) == fixture["expect"]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_expected_batches_replay_to_the_new_snapshot(path):
    fixture = load(path)
    if "batches" in fixture["expect"]:
        assert replay(rows(fixture["old"]), fixture["expect"]["batches"], rows(fixture["new"])) == []


def diffed_by_the_package(path):
    """Every fixture but rejected outlines: outline validation (cycles, unknown parents) is not the
    core's (fixtures_main.c and the reference check those)."""
    fixture = load(path)
    return not (is_outline(fixture["old"]) and "error" in fixture["expect"])


PACKAGE_PATHS = [p for p in PATHS if diffed_by_the_package(p)]


@pytest.mark.parametrize("path", PACKAGE_PATHS, ids=lambda p: p.stem)
def test_package_diff_sections_gives_the_expected_output(path):
    fixture = load(path)
    assert via_package.expect(rows(fixture["old"]), rows(fixture["new"])) == fixture["expect"]


@pytest.mark.parametrize("path", [p for p in PACKAGE_PATHS if via_package.is_flat(load(p))], ids=lambda p: p.stem)
def test_package_flat_diff_gives_the_expected_output(path):
    """Outlines (their visible rows) and one-section fixtures without refreshes through diffable.diff."""
    fixture = load(path)
    assert via_package.expect_flat(rows(fixture["old"]), rows(fixture["new"])) == fixture["expect"]


@pytest.mark.parametrize("path", PACKAGE_PATHS, ids=lambda p: p.stem)
def test_package_steps_replay_to_the_new_snapshot(path):
    fixture = load(path)
    if "batches" in fixture["expect"]:
        assert via_package.replay_steps(rows(fixture["old"]), rows(fixture["new"])) == via_package.shown(rows(fixture["new"]))


def test_pinned_keys_agree_in_python_and_the_package():
    import diffable

    pinned = 0
    for path in PATHS:
        for identifier, key in load(path).get("keys", {}).items():
            data = unicodedata.normalize("NFC", identifier).encode()
            assert xxhash.xxh3_64_intdigest(data) == int(key, 16)
            assert diffable.key(identifier) == int(key, 16)
            pinned += 1
    assert pinned >= 3
    assert diffable.key("abc") == 0x78AF5F94892F3950


def test_replay_checker_rejects_a_wrong_batch():
    old = {"sections": [{"id": "S", "items": ["a", "b", "c"]}]}
    new = {"sections": [{"id": "S", "items": ["c", "a", "b"]}]}
    wrong = [dict(deleteSections=[], insertSections=[], moveSections=[], reloadSections=[], deleteItems=[],
                  insertItems=[], moveItems=[[[0, 1], [0, 0]]], reloadItems=[], reconfigureItems=[])]
    assert replay(old, wrong, new) != []


def test_lis_tie_break():
    assert lis_positions([2, 1, 0]) == {2}
    assert lis_positions([2, 3, 0, 1]) == {2, 3}
    assert lis_positions([]) == set()


def test_outline_rows_and_problems():
    outline = {"outline": [{"id": "c", "parent": "a"}, {"id": "a", "expanded": True}, {"id": "b"},
                           {"id": "d", "parent": "c"}, {"id": "e", "parent": "b"}]}
    assert visible_rows(outline) == ["a", "c", "b"]
    assert validate_outline(outline, "old") is None
    looped = {"outline": [{"id": "x", "parent": "y"}, {"id": "y", "parent": "x"}, {"id": "z", "parent": "y"},
                          {"id": "w", "parent": "w"}, {"id": "r"}]}
    assert validate_outline(looped, "new") == {"kind": "cycle", "snapshot": "new", "identifiers": ["x", "y", "w"],
                                               "positions": [[[0]], [[1]], [[3]]]}


def test_generated_fixtures_do_not_drift():
    script = pathlib.Path(__file__).resolve().parent / "generate_fixtures.py"
    completed = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
