"""Properties of the diffable package, checked on random inputs (hypothesis) and on every fixture:
replaying steps() on old gives new, moves are the fewest (matched - LIS, with the LIS computed
here by a plain quadratic function), and key() is XXH3-64 of the NFC UTF-8 bytes."""
import json
import pathlib
import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diffable
from via_package import replay_flat
import via_package

xxhash = pytest.importorskip("xxhash")
np = pytest.importorskip("numpy")

FIXTURES = sorted((pathlib.Path(__file__).resolve().parents[1] / "Fixtures").glob("*/*.json"))


def longest_increasing_length(values):
    """Length of the longest strictly increasing subsequence, by the textbook O(n^2) recurrence."""
    best = []
    for j, value in enumerate(values):
        best.append(1 + max((best[i] for i in range(j) if values[i] < value), default=0))
    return max(best, default=0)


def fewest_moves(result):
    kept_order = [o for o in result.new_to_old.tolist() if o >= 0]
    return len(kept_order) - longest_increasing_length(kept_order)


def pairs(identifiers):
    """Two lists drawn from one pool: shared identifiers in any order, plus deletes and inserts."""
    pool = st.lists(identifiers, unique=True, max_size=60)
    return pool.flatmap(lambda values: st.tuples(
        st.permutations(values).map(lambda p: p[: len(p) * 2 // 3 + 1] if p else p),
        st.permutations(values).map(lambda p: p[len(p) // 4:])))


@settings(max_examples=200, deadline=None)
@given(pairs(st.integers(-2**63, 2**63 - 1)))
def test_int_steps_replay_and_moves_are_fewest(lists):
    old, new = lists
    result = diffable.diff(old, new)
    assert replay_flat(old, result, new) == new
    assert result.apply(old) == new
    assert len(result.moves) == fewest_moves(result)
    assert sorted(result.deletes.tolist()) == [i for i, x in enumerate(old) if x not in set(new)]


@settings(max_examples=150, deadline=None)
@given(pairs(st.text(st.characters(blacklist_categories=("Cs",)), max_size=4).map(
    lambda s: unicodedata.normalize("NFC", s))))
def test_str_steps_replay_and_moves_are_fewest(lists):
    old, new = lists
    result = diffable.diff(old, new)
    assert replay_flat(old, result, new) == new
    assert len(result.moves) == fewest_moves(result)


@settings(max_examples=100, deadline=None)
@given(pairs(st.integers(-1000, 1000)))
def test_numpy_and_list_paths_agree(lists):
    old, new = lists
    from_lists, from_arrays = diffable.diff(old, new), diffable.diff(np.array(old, dtype=np.int64),
                                                                     np.array(new, dtype=np.int32))
    assert from_arrays.new_to_old.tolist() == from_lists.new_to_old.tolist()
    assert from_arrays.moves.tolist() == from_lists.moves.tolist()


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
def test_key_is_xxh3_of_nfc_utf8(text):
    assert diffable.key(text) == xxhash.xxh3_64_intdigest(unicodedata.normalize("NFC", text).encode("utf-8"))
    assert diffable.key(text.encode("utf-8")) == xxhash.xxh3_64_intdigest(text.encode("utf-8"))


@pytest.mark.parametrize("path", [p for p in FIXTURES if via_package.is_flat(json.loads(p.read_text()))
                                  and "batches" in json.loads(p.read_text())["expect"]], ids=lambda p: p.stem)
def test_fixture_moves_are_fewest(path):
    fixture = json.loads(path.read_text(encoding="utf-8"))
    old, new = via_package._rows(fixture["old"]), via_package._rows(fixture["new"])
    result = diffable.diff(old, new)
    assert len(result.moves) == fewest_moves(result)


@pytest.mark.parametrize("seed", range(20))
def test_random_pairs_moves_are_fewest(seed):
    rng = random.Random(seed)
    old = rng.sample(range(10**6), rng.randint(0, 400))
    new = [x for x in old if rng.random() < 0.8] + rng.sample(range(10**6, 2 * 10**6), rng.randint(0, 50))
    rng.shuffle(new) if seed % 2 else new.sort(key=lambda x: (rng.random() < 0.1, old.index(x) if x in old else 0))
    result = diffable.diff(old, new)
    assert len(result.moves) == fewest_moves(result)
    assert replay_flat(old, result, new) == new
