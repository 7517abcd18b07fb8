"""diffable: diff large ordered lists of unique identifiers with the fewest moves, in C.

    >>> import diffable
    >>> d = diffable.diff(["a", "b", "c", "d"], ["b", "c", "d", "a", "e"])
    >>> d.deletes.tolist(), d.inserts.tolist(), list(zip(d.move_from.tolist(), d.move_to.tolist()))
    ([], [4], [(0, 3)])
    >>> d.steps()
    [('move', 0, 3), ('insert', 4)]

Identifiers are ints (64-bit), strs (compared in NFC, as Swift and the C core do), bytes, or any
other hashable objects (compared with ==); ``key=`` maps arbitrary objects to identifiers, like
``sorted``. numpy integer arrays and Arrow arrays (pyarrow) of strings, binaries or integers are
read from their buffers. The GIL is released while the core works.
"""
import contextlib
import sys
import threading
import warnings

from . import _core
from ._errors import DuplicateError, InconsistentHashWarning, UnknownIdentifierError, group_duplicates
from ._json_patch import json_patch
from ._result import Diff
from ._sections import Batch, SectionsDiff
from ._sections import diff_sections as _diff_sections

__all__ = ["diff", "diff_sections", "json_patch", "key", "Differ", "Diff", "SectionsDiff", "Batch", "DuplicateError",
           "UnknownIdentifierError", "InconsistentHashWarning", "MAX_COUNT", "KEPT_BUFFER_BYTES"]
# The C core's version (dfc.h), compiled in; the wheel's metadata carries the same (meson.build).
__version__ = _core.core_version

#: The most identifiers one list (or snapshot) may hold: 2**31 - 1.
MAX_COUNT = _core.MAX_COUNT


def key(identifier):
    """The 64-bit key the C core and Diffable's Swift API give an identifier: XXH3-64 (seed 0) of
    a str's NFC UTF-8 bytes (canonically equivalent spellings share it) or of bytes as they are;
    an int is its own key (as unsigned 64 bits). O(length).

    >>> import diffable
    >>> hex(diffable.key("abc"))
    '0x78af5f94892f3950'
    """
    return _core.key(identifier)


def _refuse_masked(values, side):
    """A numpy masked array is read from its data, which holds some value under each masked
    element: like an Arrow null, a masked element cannot identify anything, so it is refused
    (ValueError naming the first). With nothing masked, the data is diffed. O(n) for a masked
    array, O(1) otherwise."""
    ma = sys.modules.get("numpy.ma")  # a masked array exists only once numpy.ma is imported
    if ma is None or not isinstance(values, ma.MaskedArray) or values.ndim != 1:
        return  # (any other shape is refused by the reader, by its dimensions)
    mask = ma.getmask(values)
    if mask is not ma.nomask and mask.any():
        raise ValueError(f"{side}[{int(mask.argmax())}]: a masked element cannot identify anything; pass "
                         f"{side}.compressed() to drop the masked elements or {side}.filled(value) to fill them")


def _readable(values, side):
    """Sources the core reads directly stay as they are; an Arrow chunked array or stream (a polars
    Series, a pyarrow ChunkedArray) becomes one Arrow array, read in C like any other; a numpy
    masked array with an element masked is refused (`side` names the list)."""
    _refuse_masked(values, side)
    if hasattr(values, "__arrow_c_array__"):
        return values
    if hasattr(values, "combine_chunks"):  # pyarrow.ChunkedArray
        return values.combine_chunks()
    if hasattr(values, "__arrow_c_stream__") and not isinstance(values, (list, tuple)):
        import pyarrow  # only Arrow streams need pyarrow
        return pyarrow.chunked_array(values).combine_chunks()
    return values


_PLAIN = (int, str, bytes)


def _check_hashing(result, old_ids, new_ids):
    """Warns when one object is both deleted from `old` and inserted into `new`: it did not match
    itself, so its hash changed between the two reads or its == is not reflexive (Swift reports
    the same as inconsistent hashing). Objects that are equal but distinct with different hashes
    are not caught: that would need every deleted object compared with every inserted one.
    O(deletes + inserts), only for generic objects."""
    if not (len(result.deletes) and len(result.inserts)) or type(old_ids[0]) in _PLAIN:
        return
    inserted = {id(new_ids[j]): j for j in result.inserts.tolist()}
    for i in result.deletes.tolist():
        j = inserted.get(id(old_ids[i]))
        if j is not None:
            warnings.warn(f"old[{i}] and new[{j}] are the same object {old_ids[i]!r} but did not match: its hash "
                          "changed between the two lists or it is not equal to itself; it is reported as deleted "
                          "and inserted", InconsistentHashWarning, stacklevel=4)
            return


def _indexable(values):
    """`values` as something errors and ``Diff.apply`` can index later: a one-pass or unindexed
    iterable (a generator, ``map``, ``iter(...)``, a dict view) is read into a list here, once.
    Everything the core reads as it is stays as it is: sequences and buffers, sets and bare strs
    (the core rejects them by name), and a length past MAX_COUNT (rejected before any read).
    O(n) for a one-pass iterable, O(1) otherwise."""
    if (hasattr(values, "__getitem__") or isinstance(values, (set, frozenset))
            or hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__")):
        return values
    try:
        if len(values) > MAX_COUNT:
            return values
    except TypeError:
        pass  # no len(): an iterator
    return list(values)


def _item(values, index):
    value = values[index]
    return value.as_py() if hasattr(value, "as_py") else value.item() if hasattr(value, "item") else value


class Differ:
    """A reusable differ: it keeps the C core's context and key arrays between diffs, so once
    warm (after a diff of the largest size and shape, e.g. a shuffle, or ``reserve``) the core
    allocates nothing per diff. Use one Differ per thread (a Differ already diffing, in another
    thread or in an ``__eq__`` or ``__hash__`` it called, raises RuntimeError).
    """

    __slots__ = ("_core",)

    def __init__(self):
        self._core = _core.CoreDiffer()

    def diff(self, old, new, *, key=None) -> Diff:
        """Diffs two lists of unique identifiers. See :func:`diffable.diff`."""
        return self._diff(old, new, key)

    def _diff(self, old, new, key):
        """The diff, called straight from the public functions (``diff``, ``Differ.diff``), so that
        InconsistentHashWarning names the line that called them."""
        old, new = _indexable(old), _indexable(new)
        # With key=, each element (numpy.ma.masked too) is key's to map.
        old_ids = [key(x) for x in old] if key is not None else _readable(old, "old")
        new_ids = [key(x) for x in new] if key is not None else _readable(new, "new")
        raw = self._core._diff(old_ids, new_ids)
        if raw[0] == "duplicates":
            for side, name, source in ((0, "old", old_ids), (1, "new", new_ids)):
                identifiers, positions = group_duplicates(raw[1], side, 0, lambda i, s=source: _item(s, i),
                                                          lambda p: p)
                if identifiers:
                    raise DuplicateError(name, "item", identifiers, positions)
        result = Diff(raw, new)
        if isinstance(old_ids, (list, tuple)) and isinstance(new_ids, (list, tuple)) and old_ids:
            _check_hashing(result, old_ids, new_ids)
        return result

    def diff_sections(self, old, new, *, reload_items=(), reconfigure_items=(), reload_sections=()) -> SectionsDiff:
        """Diffs two snapshots of sections. See :func:`diffable.diff_sections`."""
        return _diff_sections(self._core, old, new, reload_items, reconfigure_items, reload_sections)

    def reserve(self, old_count, new_count):
        """Grows the buffers for a flat diff of lists this long, so that it allocates nothing in the core.
        O(1) besides the allocator."""
        self._core.reserve(old_count, new_count)

    def shrink(self):
        """Releases every buffer (the next diff grows them again). O(1)."""
        self._core.shrink()

    @property
    def allocation_count(self) -> int:
        """Allocations the core's context has made since this Differ was created (a warm Differ adds none)."""
        return self._core.allocation_count

    @property
    def memory(self) -> int:
        """Bytes held by this Differ's buffers."""
        return self._core.memory


def diff(old, new, *, key=None) -> Diff:
    """What changed between two ordered lists of unique identifiers: deletes, inserts, and the
    fewest moves (matched - LIS).

    Args:
        old, new: lists, tuples or other iterables of identifiers (all ints, all strs, all bytes,
            or all other hashable objects); numpy integer arrays (masked arrays with no element
            masked); Arrow string, binary or integer arrays (pyarrow, or anything with
            ``__arrow_c_array__``).
        key: a function mapping each element to its identifier, as for ``sorted``.

    Returns: a :class:`Diff`.

    Raises:
        DuplicateError: an identifier occurs twice in one list (every duplicate is listed).
        TypeError: mixed identifier kinds, unhashable identifiers, unsupported buffers.
        ValueError: NaN, a str with a lone surrogate, a null in an Arrow array, a masked element
            in a numpy masked array.
        OverflowError: an int outside 64 signed bits, a list longer than MAX_COUNT.

    Complexity: O(n + m) expected plus O(k log k) for the k matched identifiers that are not in a
    common prefix or suffix; the GIL is released while the core diffs (not for generic objects,
    whose == is Python code). Each thread keeps one Differ between calls (buffers up to
    KEPT_BUFFER_BYTES), so repeated diffs allocate nothing new.
    """
    with _thread_differ() as differ:
        return differ._diff(old, new, key)


#: The most buffer memory the Differ that diff() and diff_sections() keep per thread may hold
#: between calls (256 MiB: about 1.3 x 10^6 str identifiers a side, 2.5 x 10^6 ints); a call that
#: grows it further releases its buffers afterwards. Set it to 0 to keep none.
KEPT_BUFFER_BYTES = 256 << 20

_threads = threading.local()


@contextlib.contextmanager
def _thread_differ():
    """The calling thread's Differ, kept between calls so that repeated diffs reuse warm buffers
    (a fresh Differ's first touch of its memory costs page faults: about a third of a diff of
    10^5 strs). A nested call (from a key function or an __eq__) gets a fresh Differ; buffers
    beyond KEPT_BUFFER_BYTES are released after the call. O(1) besides the release."""
    if getattr(_threads, "busy", False):
        yield Differ()
        return
    differ = getattr(_threads, "differ", None)
    if differ is None:
        differ = _threads.differ = Differ()
    _threads.busy = True
    try:
        yield differ
    finally:
        _threads.busy = False
        if differ.memory > KEPT_BUFFER_BYTES:
            differ.shrink()


def diff_sections(old, new, *, reload_items=(), reconfigure_items=(), reload_sections=()) -> SectionsDiff:
    """Diffs two snapshots given as ``[(section_id, [item_ids]), ...]`` into UIKit-style batches:
    the structural batch (section and item deletes, inserts and moves, made valid under UIKit's
    rules), then a refresh batch with the requested reloads and reconfigures at final positions.

    Args:
        old, new: the snapshots. Section identifiers are unique in a snapshot; item identifiers
            are unique across it (items may move between sections).
        reload_items, reconfigure_items, reload_sections: identifiers in `new` to refresh.

    Raises: DuplicateError (old checked first; sections before items, positions as
    ``[section]`` / ``[section, item]``), UnknownIdentifierError (a refresh request not in
    `new`), and the TypeError/ValueError of :func:`diff`.

    Complexity: O(n + m + s + r) expected plus O(k log k + s log s).
    """
    with _thread_differ() as differ:
        return differ.diff_sections(old, new, reload_items=reload_items, reconfigure_items=reconfigure_items,
                                    reload_sections=reload_sections)


# The public classes live in private modules; they print and pickle as the package's own
# (diffable.DuplicateError, not diffable._errors.DuplicateError).
for _public in (DuplicateError, UnknownIdentifierError, InconsistentHashWarning, Diff, SectionsDiff, Batch):
    _public.__module__ = __name__
del _public
