"""Hostile input straight to the extension (diffable._core), past the Python layer's checks:
random bytes for every index array of the private helpers, lists changed while they are read,
identifiers whose __eq__ / __hash__ raise or mutate, lying iterables and broken Arrow exporters.
Every call must return or raise a Python exception; none may read or write out of bounds.
Run under AddressSanitizer by Tests/python/asan_hostile.sh (make python-asan), which builds the
extension with -fsanitize=address and preloads the ASan runtime into an ordinary CPython."""
import array
import random

import pytest

import diffable
from diffable import _core


def u32(values):
    return array.array("I", values).tobytes()


def random_words(rng, count, limit):
    return u32([rng.choice([0, 1, 2, limit, limit + 1, 2**31 - 1, 2**31, 2**32 - 1, rng.randrange(2**32),
                            rng.randrange(max(limit, 1) + 2)]) for _ in range(count)])


@pytest.mark.parametrize("seed", range(300))
def test_private_helpers_take_random_indices(seed):
    rng = random.Random(seed)
    n, m = rng.randint(0, 6), rng.randint(0, 6)
    try:
        _core.flat_steps(random_words(rng, n, m), random_words(rng, m, n), random_words(rng, 2 * rng.randint(0, 4), 6))
    except ValueError:
        pass
    arrays = [random_words(rng, rng.randint(0, 4) * width, 6) for width in (1, 1, 1, 1, 2, 1, 2, 2, 4, 2, 2)]
    try:
        _core.batch_steps(*arrays)
    except ValueError:
        pass
    differ = _core.CoreDiffer()
    sections = [rng.randrange(4) for _ in range(rng.randint(0, 4))]
    items = [rng.randrange(20) for _ in range(rng.randint(0, 8))]
    starts = random_words(rng, len(sections) + rng.choice([0, 1, 1, 1, 2]), len(items))
    refresh = [random_words(rng, rng.randint(0, 3), len(items)) for _ in range(3)]
    try:
        differ._diff_sections(sections, items, starts, sections[::-1], items[::-1], starts, *refresh)
    except (ValueError, OverflowError):
        pass


def test_odd_byte_lengths_are_refused():
    # Built at run time: one-byte bytes are static singletons, where ASan would see no overflow.
    for bad in (bytes(bytearray(1)), bytes(bytearray(5)), bytes(bytearray(7))):
        with pytest.raises(ValueError):
            _core.flat_steps(bad, b"", b"")
        with pytest.raises(ValueError):
            _core.CoreDiffer()._diff_sections([], [], bad, [], [], u32([0]), b"", b"", b"")
    with pytest.raises(TypeError):
        _core.flat_steps("not bytes", b"", b"")


def test_lists_changed_while_read():
    class Shrinking:
        """Empties the list being read from its __hash__ (generic objects are hashed while read)."""
        def __init__(self, victim):
            self.victim = victim

        def __hash__(self):
            self.victim.clear()
            return 1

        def __eq__(self, other):
            return self is other

    for _ in range(50):
        victim = [object() for _ in range(10)]
        victim[3] = Shrinking(victim)
        victim[7] = Shrinking(victim)
        try:
            diffable.diff(victim, list(victim))
        except (ValueError, TypeError, IndexError):
            pass

    class Growing:
        def __init__(self, victim):
            self.victim = victim

        def __eq__(self, other):
            self.victim.extend(range(1000))  # while the core compares (the copy is what it reads)
            return self is other

        def __hash__(self):
            return 7

    victim = [Growing(None) for _ in range(20)]
    for g in victim:
        g.victim = victim
    diffable.diff(victim, victim[::-1])


def test_equality_and_hash_that_raise():
    class Bad:
        def __init__(self, fail_hash):
            self.fail_hash = fail_hash

        def __hash__(self):
            if self.fail_hash:
                raise RuntimeError("hash")
            return 1

        def __eq__(self, other):
            raise KeyError("eq")

    with pytest.raises(RuntimeError):
        diffable.diff([Bad(False), Bad(True)], [])
    with pytest.raises(KeyError):
        diffable.diff([Bad(False), Bad(False)], [Bad(False)])


def test_lying_iterables():
    class Liar:
        def __len__(self):
            return 10**6

        def __iter__(self):
            yield from ("a", "b")

    assert diffable.diff(Liar(), ["b", "a"]).moves.tolist() == [[1, 0]]

    def broken():
        yield "a"
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        diffable.diff(broken(), [])


def test_broken_arrow_exporters():
    class Exporter:
        def __init__(self, value):
            self.value = value

        def __arrow_c_array__(self, requested_schema=None):
            if isinstance(self.value, Exception):
                raise self.value
            return self.value

    import pyarrow
    schema, data = pyarrow.array(["a"]).__arrow_c_array__()
    for value, error in [((1, 2), (TypeError, ValueError)), ((), TypeError), (None, TypeError),
                         (OSError("export"), OSError), ((data, schema), ValueError)]:
        with pytest.raises(error):
            diffable.diff(Exporter(value), [])


def test_every_identifier_kind_with_random_content():
    rng = random.Random(11)
    pools = [
        lambda: rng.randrange(-2**63, 2**63),
        lambda: "".join(rng.choice("aé\u0301\u00e9日\U0001f600\u3007") for _ in range(rng.randint(0, 5))),
        lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 5))),
        lambda: (rng.randrange(5), rng.choice("xy")),
    ]
    for _ in range(300):
        make = rng.choice(pools)
        old = list(dict.fromkeys(make() for _ in range(rng.randint(0, 12))))
        new = list(dict.fromkeys(make() for _ in range(rng.randint(0, 12))))
        try:
            result = diffable.diff(old, new)
        except diffable.DuplicateError:
            continue  # two spellings of one str in NFC
        assert len(result.apply(old)) == len(new)


def test_reserve_beyond_the_limit():
    differ = _core.CoreDiffer()
    for old, new in ((2**40, 0), (0, 2**62), (diffable.MAX_COUNT + 1, 1)):
        with pytest.raises((OverflowError, MemoryError, ValueError)):
            differ.reserve(old, new)
    with pytest.raises(ValueError):
        differ.reserve(-1, 0)
    assert differ._diff([1, 2], [2, 1])[0] == "ok"  # still usable


def test_a_collection_while_strs_are_normalized_may_change_the_list():
    # The reader keeps borrowed items ahead of the one it reads; a str sent to unicodedata may
    # allocate, and a collection's callbacks may then shrink the list: the items ahead are
    # fetched again (bounds-checked), never used stale.
    import gc
    victim = [f"cafe\u0301{k}" for k in range(300)]

    def shrink(phase, info):
        if phase == "start" and len(victim) > 50:
            del victim[len(victim) // 2:]

    threshold = gc.get_threshold()
    gc.callbacks.append(shrink)
    gc.set_threshold(1, 1, 1)
    try:
        for _ in range(5):
            victim[:] = [f"cafe\u0301{k}" for k in range(300)]
            try:
                diffable.diff(victim, [])
            except IndexError:
                pass
    finally:
        gc.callbacks.remove(shrink)
        gc.set_threshold(*threshold)
