"""The diffable package's API: inputs it reads (lists, numpy, Arrow, key=), the errors it raises
for hostile input, the reusable Differ, and threads diffing at once."""
import array
import random
import re
import threading

import pytest

import diffable
from via_package import replay_flat

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")


def test_tour():
    result = diffable.diff(["a", "b", "c", "d"], ["b", "c", "d", "a", "e"])
    assert result.deletes.tolist() == [] and result.inserts.tolist() == [4]
    assert result.moves.tolist() == [[0, 3]]
    assert result.old_to_new.tolist() == [3, 0, 1, 2] and result.new_to_old.tolist() == [1, 2, 3, 0, -1]
    assert result.steps() == [("move", 0, 3), ("insert", 4)]
    assert result.apply(["a", "b", "c", "d"]) == ["b", "c", "d", "a", "e"]
    assert len(result) == 2 and result.matched == 4


def test_every_input_kind_gives_the_same_diff():
    old, new = [5, 1, 9, 3, 7], [9, 3, 2, 5, 1]
    expected = diffable.diff(old, new)
    for o, n in [(tuple(old), tuple(new)), (iter(old), iter(new)), (np.array(old), np.array(new)),
                 (np.array(old, dtype=np.int32), np.array(new, dtype=np.uint16)), (array.array("q", old), new),
                 (np.repeat(np.array(old), 2)[::2], new), (pa.array(old), pa.array(new, type=pa.int32())),
                 (pa.chunked_array([old[:2], old[2:]]), new)]:
        got = diffable.diff(o, n)
        for field in ("deletes", "inserts", "old_to_new", "new_to_old"):
            assert getattr(got, field).tolist() == getattr(expected, field).tolist()
        assert got.moves.tolist() == expected.moves.tolist()


def test_strings_bytes_and_arrow_agree():
    old, new = ["x", "café", "z", ""], ["", "cafe\u0301", "x", "w"]
    expected = diffable.diff(old, new)
    assert expected.matched == 3  # "café" and "cafe\u0301" are one identifier (NFC)
    for o, n in [(pa.array(old), pa.array(new)), (pa.array(old, pa.large_string()), new),
                 (pa.array(old).slice(0), pa.array(["q"] + new).slice(1))]:
        assert diffable.diff(o, n).new_to_old.tolist() == expected.new_to_old.tolist()
    raw = [s.encode() for s in old], [s.encode() for s in new]
    assert diffable.diff(*raw).matched == 2  # bytes are compared as they are
    assert diffable.diff(pa.array(raw[0], pa.binary()), raw[1]).matched == 2


def test_key_and_generic_objects():
    rows_old = [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}]
    rows_new = [{"id": 3, "v": "C"}, {"id": 1, "v": "A"}]
    result = diffable.diff(rows_old, rows_new, key=lambda r: r["id"])
    assert result.deletes.tolist() == [1] and result.moves.tolist() == [[2, 0]]
    assert result.apply(rows_old) == [rows_old[2], rows_old[0]]  # old objects survive
    tuples = diffable.diff([(1, "a"), (2, "b")], [(2, "b"), (3, "c")])
    assert tuples.deletes.tolist() == [0] and tuples.inserts.tolist() == [1]


def test_duplicates_list_every_position():
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff(["a", "b"], ["x", "y", "x", "z", "y", "x"])
    error = caught.value
    assert (error.snapshot, error.kind) == ("new", "item")
    assert error.identifiers == ["x", "y"] and error.positions == [[0, 2, 5], [1, 4]]
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff(np.array([7, 7, 8]), [1])
    assert caught.value.identifiers == [7] and caught.value.positions == [[0, 1]]
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff(["café", "cafe\u0301"], [])
    assert caught.value.positions == [[0, 1]]


def test_sections_errors():
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff_sections([("A", [1]), ("B", [2, 1])], [("A", [])])
    assert caught.value.kind == "item" and caught.value.positions == [[[0, 0], [1, 1]]]
    with pytest.raises(diffable.UnknownIdentifierError) as caught:
        diffable.diff_sections([("A", [1])], [("A", [1])], reload_items=[1, 5, 5])
    assert caught.value.identifiers == [5] and caught.value.positions == [[[1], [2]]]
    with pytest.raises(TypeError, match="section_id"):
        diffable.diff_sections([("A", [1], "extra")], [])


@pytest.mark.parametrize("old, new, error, words", [
    ([1, "a"], [1], TypeError, r"old\[1\] is str but old\[0\] is int"),
    ([1, 2], ["a"], TypeError, "old identifiers are int identifiers but new identifiers are str"),
    ([[1], [2]], [], TypeError, "hashable"),
    ([(1,), {2}], [], TypeError, "hashable"),
    ([1.0, float("nan")], [], ValueError, "NaN"),
    ([None, 1], [], TypeError, "old\\[1\\] is int"),
    (["a", "\ud800"], [], ValueError, "surrogate"),
    ([2**63], [], OverflowError, "64 signed bits"),
    (np.array([1.5]), [], TypeError, "numpy array of dtype float64"),
    (np.array(["a", "bc"]), [], TypeError, "numpy array of dtype <U2"),  # not the buffer format '2w'
    (np.array([object()]), [], TypeError, "dtype object"),
    (array.array("d", [1.5]), [], TypeError, "native integers \\(format 'd'"),
    ({1, 2}, [], TypeError, "old is a set: its iteration order is arbitrary"),
    ([1], frozenset([1]), TypeError, "new is a frozenset"),
    (np.zeros((2, 2), dtype=np.int64), [], TypeError, "one-dimensional"),
    (np.array([2**63], dtype=np.uint64), [], OverflowError, "2\\*\\*63"),
    (pa.array(["a", None]), [], ValueError, "null"),
    (pa.array([1.5]), [], TypeError, "format 'g'"),
    ("abc", [], TypeError, "is a str"),
])
def test_hostile_inputs_raise_clear_errors(old, new, error, words):
    with pytest.raises(error, match=words):
        diffable.diff(old, new)


def test_invalid_utf8_bytes_and_odd_objects_are_identifiers():
    old = [b"\xff\xfe", b"\xc3", b"ok"]
    assert diffable.diff(old, [b"ok", b"\xff\xfe"]).deletes.tolist() == [1]
    assert diffable.diff([None, ("a",)], [("a",), None]).moves.tolist() == [[1, 0]]
    with pytest.raises(ValueError, match="not valid UTF-8"):
        diffable.diff(pa.array([b"\xff\xfe"], pa.binary()).cast(pa.string(), safe=False), [])


def test_one_pass_iterables_are_read_once_and_indexed_later():
    # A duplicate in a generator is named like one in a list (it used to raise TypeError from
    # indexing the exhausted generator), and apply() takes inserts from what the diff read.
    with pytest.raises(diffable.DuplicateError, match=r"'a' at \[0, 2\]"):
        diffable.diff((x for x in ["a", "b", "a"]), ["a"])
    with pytest.raises(diffable.DuplicateError, match=r"'b' at \[1, 2\]"):
        diffable.diff([], map(str, ["a", "b", "b"]))
    assert diffable.diff(["a"], (x for x in ["a", "b"])).apply(["a"]) == ["a", "b"]
    assert diffable.diff(["a"], {"a": 1, "b": 2}.keys()).apply(["a"]) == ["a", "b"]
    assert diffable.diff(iter([1]), iter([2, 1])).apply([1]) == [2, 1]
    assert diffable.diff(["a"], map(str.upper, ["a", "b"]), key=str.lower).apply(["a"]) == ["a", "B"]


def test_numpy_dtypes_without_a_buffer_are_named():
    for values in (np.array(["2020-01-01"], dtype="datetime64[D]"), np.array([1], dtype="m8[s]")):
        with pytest.raises(TypeError, match=re.escape(f"old: a numpy array of dtype {values.dtype} is not supported")):
            diffable.diff(values, [])


def test_the_mapping_hint_names_only_what_the_call_takes():
    with pytest.raises(TypeError, match="pass key= to map them"):
        diffable.diff(["a", 1], [])
    with pytest.raises(TypeError, match=r"^old items\[3\] is int but old items\[0\] is str[^;]*$"):
        diffable.diff_sections([("A", ["a"]), ("B", ["b", "c", 5])], [])
    with pytest.raises(TypeError, match=r"identifiers must be hashable \(list is not\)$"):
        diffable.diff_sections([("A", [[1]])], [])


def test_a_bare_string_refresh_request_is_refused():
    snapshot = [("S", ["a", "b"])]
    for name in ("reload_items", "reconfigure_items", "reload_sections"):
        with pytest.raises(TypeError, match=f"{name} is a str; pass a list of identifiers"):
            diffable.diff_sections(snapshot, snapshot, **{name: "ab"})
    assert diffable.diff_sections(snapshot, snapshot, reload_items=["a"]).batches[-1].reload_items == [(0, 0)]


def test_the_docstrings_run_as_written():
    import doctest
    failed, attempted = doctest.testmod(diffable)
    assert attempted > 0 and failed == 0


def test_huge_lengths_are_rejected_before_reading():
    class Huge:
        def __len__(self):
            return 2**31

        def __iter__(self):
            raise AssertionError("never iterated")

    with pytest.raises(OverflowError, match="at most 2147483647"):
        diffable.diff(Huge(), [])
    wide = np.broadcast_to(np.int64(1), (2**31,))  # no memory behind it
    with pytest.raises(OverflowError, match="at most 2147483647"):
        diffable.diff(wide, [])


def test_key_is_xxh3_of_nfc_utf8():
    xxhash = pytest.importorskip("xxhash")
    for text in ["", "abc", "café", "cafe\u0301", "한국어", "\U0001F600"]:
        import unicodedata
        assert diffable.key(text) == xxhash.xxh3_64_intdigest(unicodedata.normalize("NFC", text).encode())
    assert diffable.key(b"\xff") == xxhash.xxh3_64_intdigest(b"\xff")
    assert diffable.key(-1) == 2**64 - 1
    with pytest.raises(ValueError, match="surrogate"):
        diffable.key("\udfff")
    with pytest.raises(TypeError):
        diffable.key(1.5)


def test_a_warm_differ_allocates_nothing_in_the_core():
    differ = diffable.Differ()
    rng = random.Random(1)
    old = list(range(20000))
    new = old[:]
    rng.shuffle(new)

    def round(seed):
        rng.shuffle(new)
        differ.diff(old, new[: 15000 + seed])
        differ.diff([str(i) for i in old[:5000]], [str(i) for i in new[:5000]])

    for seed in range(2):  # the buffers grow to the largest diff of each kind
        round(seed)
    warm = differ.allocation_count
    for seed in range(2, 6):
        round(seed)
    assert differ.allocation_count == warm
    assert differ.memory > 0
    differ.shrink()
    assert differ.diff([1, 2], [2, 1]).moves.tolist() == [[1, 0]]


def test_results_do_not_share_memory_with_the_differ():
    differ = diffable.Differ()
    first = differ.diff([1, 2, 3], [3, 2, 1])
    differ.diff(list(range(1000)), list(range(999, -1, -1)))
    assert first.moves.tolist() == [[2, 0], [1, 1]]


def test_threads_diff_at_once_and_share_nothing():
    rng = random.Random(7)
    jobs = []
    for _ in range(4):
        old = [f"id{i}" for i in range(30000)]
        new = [x for x in old if rng.random() > 0.1] + [f"new{i}" for i in range(100)]
        rng.shuffle(new)
        jobs.append((old, new))
    expected = [diffable.diff(o, n).new_to_old.tolist() for o, n in jobs]
    got = [None] * 4

    def work(k):
        for _ in range(3):
            got[k] = diffable.diff(*jobs[k]).new_to_old.tolist()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def test_one_differ_in_two_threads_is_refused_not_corrupted():
    differ = diffable.Differ()
    old = np.arange(3_000_000)
    new = old[::-1].copy()
    errors, results = [], []

    def work():
        try:
            results.append(len(differ.diff(old, new).moves))
        except RuntimeError as error:
            errors.append(str(error))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results and all(r == len(old) - 1 for r in results)
    assert all("another thread" in e for e in errors)
    # Re-entered from an identifier's own code in the same thread: the same refusal, saying so.
    class Reentrant:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            differ.diff([1], [1])
            return self is other

    with pytest.raises(RuntimeError, match="already diffing, in another thread or in code of this diff"):
        differ.diff([Reentrant(), Reentrant()], [])
    assert differ.diff([1], [2, 1]).inserts.tolist() == [0]  # and it is free again


def test_apply_checks_the_length():
    result = diffable.diff([1, 2], [2])
    with pytest.raises(ValueError, match="old has 3 elements"):
        result.apply([1, 2, 3])


def test_text_below_u0300_is_already_nfc():
    """Why the package skips normalization for such text: no code point below U+0300 changes
    under NFC, and no canonical composition has a second part below U+0300."""
    import sys
    import unicodedata
    assert all(unicodedata.normalize("NFC", chr(c)) == chr(c) for c in range(0x300))
    for c in range(sys.maxunicode + 1):
        parts = unicodedata.decomposition(chr(c)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            assert int(parts[1], 16) >= 0x300, hex(c)
    latin = ["Ærøskøbing", "naïve", "ŁÓDŹ", "ǅ"]
    assert diffable.diff(latin, [unicodedata.normalize("NFD", s) for s in reversed(latin)]).matched == 4


def _u32(values):
    return array.array("I", values).tobytes()


def test_private_step_helpers_refuse_hostile_indices():
    """diffable._core's step helpers take raw index arrays; the core checks every index against
    the counts, so hostile ones raise ValueError instead of reading out of bounds."""
    from diffable import _core

    no = _u32([])
    # a move from index 2**32 - 1 of a two-element list
    with pytest.raises(ValueError, match="flat_steps"):
        _core.flat_steps(_u32([0, 1]), _u32([0, 1]), _u32([2**32 - 1, 0]))
    with pytest.raises(ValueError, match="pairs"):
        _core.flat_steps(_u32([0]), _u32([0]), _u32([0]))
    # an item delete past its section, a section moved twice, rows that do not add up
    with pytest.raises(ValueError, match="batch_steps"):
        _core.batch_steps(_u32([2]), _u32([1]), no, no, no, no, _u32([0, 7]), no, no, no, no)
    with pytest.raises(ValueError, match="batch_steps"):
        _core.batch_steps(_u32([0, 0]), _u32([0, 0]), no, no, _u32([0, 1, 0, 0]), no, no, no, no, no, no)
    with pytest.raises(ValueError, match="batch_steps"):
        _core.batch_steps(_u32([2]), _u32([2]), no, no, no, no, _u32([0, 0]), no, no, no, no)
    with pytest.raises(ValueError, match="whole entries"):
        _core.batch_steps(no, no, no, no, no, no, _u32([0]), no, no, no, no)
    rng = random.Random(7)
    for _ in range(2000):  # random garbage: an error or steps, never a crash
        words = [[rng.choice([0, 1, 2, 3, 2**32 - 1]) for _ in range(rng.randrange(0, 3) * w)]
                 for w in (1, 1, 1, 1, 2, 1, 2, 2, 4, 2, 2)]
        try:
            _core.batch_steps(*(_u32(w) for w in words))
        except ValueError:
            pass
    # a consistent batch: one section, move row 1 to the front
    assert _core.batch_steps(_u32([2]), _u32([2]), no, no, no, no, no, no, _u32([0, 1, 0, 0]), no, no) == [
        ("move_item", (0, 1), (0, 0))]


# ---- completeness: apply() on sections, Arrow views and dictionaries, polars ----

def test_sections_apply_builds_the_new_snapshot_from_the_old_objects():
    class Row:
        def __init__(self, ident):
            self.ident = ident

        def __eq__(self, other):
            return isinstance(other, Row) and other.ident == self.ident

        def __hash__(self):
            return hash(self.ident)

    a, b, c = Row("a"), Row("b"), Row("c")
    old = [("A", [a, b]), ("B", [c])]
    new = [("C", [Row("d")]), ("B", [Row("c"), Row("a")]), ("A", [])]
    result = diffable.diff_sections(old, new)
    got = result.apply(old)
    assert got == new
    assert got[1][1][0] is c and got[1][1][1] is a  # kept items are the old objects
    with pytest.raises(ValueError, match="the diff was made from"):
        result.apply([("A", [a]), ("B", [c])])
    rng = random.Random(3)
    for _ in range(200):
        items = rng.sample(range(100), 20)
        sections = rng.sample(range(10), 4)
        snap = lambda ids, secs: [(s, ids[k::len(secs)]) for k, s in enumerate(secs)]
        old = snap(items, sections)
        new = snap(rng.sample(items, 15) + [1000 + k for k in range(3)], rng.sample(sections + [99], 4))
        assert diffable.diff_sections(old, new).apply(old) == new


def test_arrow_views_and_dictionaries_read_in_c():
    old = ["x", "café", "a long identifier past twelve bytes", "", "z" * 40]
    new = ["z" * 40, "cafe\u0301", "x", "w", "a long identifier past twelve bytes"]
    expected = diffable.diff(old, new)
    sources = [pa.array(old, pa.string_view()), pa.array(old).dictionary_encode(),
               pa.array(old, pa.large_string()).dictionary_encode(), pa.array(["q"] + old, pa.string_view()).slice(1),
               pa.array(old, pa.string_view()).dictionary_encode()]
    for source in sources:
        got = diffable.diff(source, new)
        assert got.new_to_old.tolist() == expected.new_to_old.tolist(), source.type
        assert got.moves.tolist() == expected.moves.tolist()
    raw_old, raw_new = [s.encode() for s in old], [s.encode() for s in new]
    assert diffable.diff(pa.array(raw_old, pa.binary_view()), raw_new).matched == 3  # bytes as they are
    ints = pa.array([5, 7, 9, 5]).dictionary_encode().slice(0, 3)
    assert diffable.diff(ints, [9, 5]).new_to_old.tolist() == [2, 0]
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff(pa.array(["a", "b", "a"]).dictionary_encode(), [])
    assert caught.value.identifiers == ["a"] and caught.value.positions == [[0, 2]]
    with pytest.raises(ValueError, match=r"old\[1\]: a null"):
        diffable.diff(pa.array(["a", None]).dictionary_encode(), [])
    with pytest.raises(ValueError, match="null"):
        diffable.diff(pa.array(["a", None], pa.string_view()), [])
    # Large views across several data buffers (a concatenation keeps its chunks' buffers).
    chunks = [pa.array([f"identifier number {k:06d}" for k in range(j, 5000, 3)], pa.string_view()) for j in range(3)]
    joined = pa.concat_arrays(chunks)
    assert diffable.diff(joined, joined.to_pylist()[::-1]).matched == 5000


def test_nfc_text_never_reaches_unicodedata():
    # One pass per str in C (the core's dfc_hash_if_nfc); unicodedata.normalize only for text
    # the quick check cannot prove NFC. Counted by the module (normalize_calls).
    core = diffable._core
    scripts = [f"товар-{k}" for k in range(500)] + [f"商品{k}" for k in range(500)] + \
              [f"עברית{k}" for k in range(100)] + [f"ｆｕｌｌ{k}" for k in range(100)] + [f"é{k}–€" for k in range(100)]
    before = core.normalize_calls()
    for source in (scripts, tuple(scripts), pa.array(scripts), pa.array(scripts, pa.string_view()),
                   pa.array(scripts).dictionary_encode()):
        assert diffable.diff(source, scripts[::-1]).matched == len(scripts)
    assert core.normalize_calls() == before
    decomposed = [f"cafe\u0301{k}" for k in range(10)]
    assert diffable.diff(decomposed, [f"café{k}" for k in range(10)]).matched == 10
    assert core.normalize_calls() == before + 10


def test_polars_series_through_arrow():
    pl = pytest.importorskip("polars")
    old, new = ["a", "b", "c", "d"], ["d", "a", "e"]
    expected = diffable.diff(old, new)
    got = diffable.diff(pl.Series(old), pl.Series(new))
    assert got.new_to_old.tolist() == expected.new_to_old.tolist()
    assert diffable.diff(pl.Series([3, 1, 2]), pl.Series([1, 2, 3])).moves.tolist() == [[0, 2]]
    assert diffable.diff(pl.Series(old, dtype=pl.Categorical), new).matched == 2


# ---- messages ----

def test_public_names_print_as_the_package():
    with pytest.raises(diffable.DuplicateError) as caught:
        diffable.diff([1, 1], [])
    assert type(caught.value).__module__ == "diffable"
    assert repr(type(caught.value)) == "<class 'diffable.DuplicateError'>"
    import pickle
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.identifiers == [1] and again.positions == [[0, 1]] and str(again) == str(caught.value)


def test_section_items_that_are_not_a_list_name_the_section():
    with pytest.raises(TypeError, match=r"old\[0\]: a section's items must be .* not int"):
        diffable.diff_sections([("A", 5)], [])
    with pytest.raises(TypeError, match=r"new\[1\]: .* not set"):
        diffable.diff_sections([], [("A", [1]), ("B", {2})])
    with pytest.raises(TypeError, match="arbitrary"):
        diffable.diff_sections({("A", (1,))}, [])


def test_an_object_that_does_not_match_itself_is_reported():
    class Drifting:
        calls = 0

        def __hash__(self):
            Drifting.calls += 1
            return Drifting.calls

    x, y = Drifting(), Drifting()
    with pytest.warns(diffable.InconsistentHashWarning, match=r"old\[0\] and new\[1\] are the same object"):
        result = diffable.diff([x, y], [y, x])
    assert result.apply([x, y]) == [y, x]  # still a valid diff: deletes and inserts
    # The warning names the line that called the library, through either entry point (diff()
    # once named its own line, so the default filter showed it once per process).
    for call in (diffable.diff, diffable.Differ().diff):
        with pytest.warns(diffable.InconsistentHashWarning) as caught:
            call([x, y], [y, x])
        assert caught[0].filename == __file__, (call, caught[0].filename)


def test_module_state_and_a_subinterpreter():
    import subprocess
    import sys
    code = ("import _xxsubinterpreters as s, warnings\n"
            "i = s.create()\n"
            "s.run_string(i, 'import warnings; warnings.simplefilter(\"ignore\")\\n"
            "import diffable\\nassert diffable.diff([\"a\", \"b\"], [\"b\", \"a\"]).steps() == [(\"move\", 1, 0)]\\n"
            "assert diffable.key(\"cafe\\\\u0301\") == diffable.key(\"caf\\\\u00e9\")')\n"
            "import diffable\nprint('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if "No module named '_xxsubinterpreters'" in done.stderr:
        pytest.skip("no _xxsubinterpreters in this CPython")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_masked_element_is_refused_like_an_arrow_null():
    # The buffer of a masked array holds some value under each masked element; diffing it would
    # match identifiers that are not there.
    masked = np.ma.array([5, 1, 9, 3], mask=[False, True, False, True])
    for old, new, side in ((masked, [9], "old"), ([9], masked, "new")):
        with pytest.raises(ValueError, match=re.escape(f"{side}[1]: a masked element cannot identify anything; "
                                                       f"pass {side}.compressed()")):
            diffable.diff(old, new)
        with pytest.raises(ValueError, match=r"filled\("):
            diffable.Differ().diff(old, new)
    # Nothing masked (no mask at all, or an all-False one): the data is diffed.
    for unmasked in (np.ma.array([5, 1, 9]), np.ma.array([5, 1, 9], mask=[False] * 3)):
        assert diffable.diff(unmasked, [9, 5]).deletes.tolist() == [1]
    assert diffable.diff(masked.compressed(), [9, 5]).new_to_old.tolist() == [1, 0]


def test_apply_returns_python_objects_whatever_the_inputs():
    # The result holds what the sources' .tolist() / .to_pylist() give, never numpy or Arrow
    # scalars, and never a mix of them with Python objects.
    ints_old, ints_new = [5, 1, 9, 3], [9, 3, 2, 5]
    words_old, words_new = ["a", "b", "c", "d"], ["c", "d", "x", "a"]
    cases = [(ints_old, ints_new, ints_new), (np.array(ints_old), np.array(ints_new), ints_new),
             (np.array(ints_old, np.int32), np.array(ints_new, np.uint16), ints_new),
             (pa.array(ints_old), pa.array(ints_new, pa.int32()), ints_new),
             (pa.array(words_old), pa.array(words_new), words_new),
             (pa.chunked_array([words_old[:2], words_old[2:]]), pa.chunked_array([words_new]), words_new),
             (pa.array([w.encode() for w in words_old], pa.binary()), [w.encode() for w in words_new],
              [w.encode() for w in words_new])]
    for old, new, expected in cases:
        result = diffable.diff(old, new)
        as_list = old.tolist() if hasattr(old, "tolist") else old.to_pylist() if hasattr(old, "to_pylist") else old
        for source in (old, as_list):  # the old array itself, or the same values as a list
            got = result.apply(source)
            assert type(got) is list and got == expected, (old, new, source)
            assert [type(x) for x in got] == [type(x) for x in expected], (old, new, got)
    # A list diff applied to a numpy array, too.
    assert [type(x) for x in diffable.diff(ints_old, ints_new).apply(np.array(ints_old))] == [int] * 4
    # With key=, kept elements are still old's own objects, in a numpy object array too.
    rows_old = np.array([{"id": 1}, {"id": 2}], dtype=object)
    rows_new = np.array([{"id": 2}, {"id": 3}], dtype=object)
    got = diffable.diff(rows_old, rows_new, key=lambda r: r["id"]).apply(rows_old)
    assert got == [{"id": 2}, {"id": 3}] and got[0] is rows_old[1] and got[1] is rows_new[1]
    # A numpy array of rows diffed with key=: its rows stay rows (arrays), not nested lists.
    grid_old, grid_new = np.array([[1, 10], [2, 20]]), np.array([[2, 20], [3, 30]])
    got = diffable.diff(grid_old, grid_new, key=lambda row: int(row[0])).apply(grid_old)
    assert [type(x) for x in got] == [np.ndarray, np.ndarray] and [x.tolist() for x in got] == [[2, 20], [3, 30]]

    # An Arrow array without pyarrow's take() (another Arrow library): read whole, then indexed.
    class ArrowLike:
        def __init__(self, items):
            self.items = items

        def __arrow_c_array__(self, requested_schema=None):
            return pa.array(self.items).__arrow_c_array__(requested_schema)

        def __len__(self):
            return len(self.items)

        def to_pylist(self):
            return list(self.items)

    like_old, like_new = ArrowLike(["a", "b", "c"]), ArrowLike(["c", "x", "a"])
    assert diffable.diff(like_old, like_new).apply(like_old) == ["c", "x", "a"]
    # Without numpy (results are array.array then), Arrow inputs give Python objects too.
    import subprocess
    import sys
    code = ("import sys; sys.modules['numpy'] = None\ntry:\n    import pyarrow as pa\n"
            "except ImportError:\n    sys.exit(print('pyarrow needs numpy'))\nimport diffable\n"
            "d = diffable.diff(pa.array(['a', 'b', 'c']), pa.array(['c', 'x', 'a']))\n"
            "print(type(d.inserts).__name__, d.apply(pa.array(['a', 'b', 'c'])), d.apply(['a', 'b', 'c']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if done.stdout.strip() == "pyarrow needs numpy":
        pytest.skip("this pyarrow needs numpy")
    assert done.stdout.strip() == "array ['c', 'x', 'a'] ['c', 'x', 'a']", (done.stdout, done.stderr)


def test_import_does_not_import_numpy():
    import subprocess
    import sys
    code = "import diffable, sys; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "False", (done.stdout, done.stderr)


def test_a_numpy_that_fails_to_import_counts_as_absent_with_one_warning():
    import subprocess
    import sys
    # A numpy module whose import raises something other than ImportError (a broken build).
    code = ("import sys, types, warnings, importlib.abc, importlib.machinery\n"
            "class Broken(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'numpy': raise RuntimeError('numpy built for another CPU')\n"
            "sys.meta_path.insert(0, Broken())\n"
            "import diffable\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    first = diffable.diff([1, 2, 3], [3, 1, 4])\n"
            "    second = diffable.diff([1, 2], [2, 1])\n"
            "print(type(first.deletes).__name__, list(first.deletes), first.apply([1, 2, 3]), second.apply([1, 2]),\n"
            "      len(caught), 'another CPU' in str(caught[0].message), caught[0].filename, caught[0].lineno)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    # The warning names the caller's line (the first diff, line 9 of the program), not the package's.
    assert done.returncode == 0 and done.stdout.strip() == "array [1] [3, 1, 4] [2, 1] 1 True <string> 9", (done.stdout, done.stderr)


def test_results_are_numpy_arrays_when_numpy_is_installed():
    import subprocess
    import sys
    # In a fresh process, so that numpy is imported by the diff, not by this test module.
    code = ("import diffable\nd = diffable.diff([1, 2, 3], [3, 1, 4])\nimport numpy\n"
            "print(all(isinstance(getattr(d, f), numpy.ndarray) for f in ('deletes', 'inserts', 'moves', "
            "'move_from', 'move_to', 'old_to_new', 'new_to_old')), d.moves.shape, d.moves.dtype)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "True (1, 2) int32", (done.stdout, done.stderr)
    result = diffable.diff(np.array([1, 2, 3]), pa.array([3, 1, 4]))
    assert isinstance(result.deletes, np.ndarray) and result.deletes.dtype == np.int32
