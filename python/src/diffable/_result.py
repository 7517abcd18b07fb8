"""The result of a flat diff (diffable.diff, Differ.diff)."""
import array
import sys

from . import _core
from ._arrays import int32_array, pairs


class Diff:
    """What changed between two lists of unique identifiers.

    Every array is compact: a numpy int32 array when numpy is installed, else ``array.array('i')``.

    Attributes:
        deletes: old indices whose identifier is not in the new list, ascending.
        inserts: new indices whose identifier is not in the old list, ascending.
        moves: (old index, new index) of each moved identifier, by ascending new index: a k x 2
            numpy array (without numpy, a list of pairs). Their number is the fewest possible:
            ``matched - LIS``, the identifiers off a longest run that kept its order.
        move_from, move_to: the two columns of ``moves`` as arrays.
        old_to_new: for each old index, its new index or -1.
        new_to_old: for each new index, its old index or -1.
        matched: how many identifiers are in both lists.
        core_seconds: time spent in the C core (hashing and diffing, GIL released).
    """

    __slots__ = ("deletes", "inserts", "move_from", "move_to", "_moves", "old_to_new", "new_to_old",
                 "matched", "core_seconds", "_new", "_raw")

    def __init__(self, raw, new):
        _, deletes, inserts, moves, old_to_new, new_to_old, matched, seconds = raw
        self._raw = (old_to_new, new_to_old, moves)
        self.deletes, self.inserts = int32_array(deletes), int32_array(inserts)
        self._moves = pairs(moves)
        flat = int32_array(moves)
        self.move_from, self.move_to = flat[0::2], flat[1::2]
        self.old_to_new, self.new_to_old = int32_array(old_to_new), int32_array(new_to_old)
        self.matched, self.core_seconds, self._new = matched, seconds, new

    @property
    def moves(self):
        return self._moves

    def __len__(self):
        """The number of changes: deletes + inserts + moves. O(1)."""
        return len(self.deletes) + len(self.inserts) + len(self.move_from)

    def __bool__(self):
        return len(self) > 0

    def __repr__(self):
        return (f"Diff(deletes={len(self.deletes)}, inserts={len(self.inserts)}, moves={len(self.move_from)}, "
                f"matched={self.matched})")

    def steps(self):
        """The changes as steps applied one at a time to a copy of the old list, each index valid
        in the list the steps before it left, listed by the C core in the order every Diffable
        language shares (docs/ALGORITHM.md, "Steps"):

        ``("delete", i)`` last index first; then ``("move", from, to)`` (remove at ``from``, then
        insert at ``to``) for every move, in final order; then ``("insert", j)`` first first, at
        final indices (take ``new[j]``). After the last step the list equals the new list.

        O(n + m + moves log moves) in C, plus one tuple per step.
        """
        old_to_new, new_to_old, moves = self._raw
        return _core.flat_steps(old_to_new, new_to_old, moves)

    def apply(self, old):
        """The new list built from `old`: kept identifiers are taken from `old` (so with ``key=``
        the old objects survive), inserted ones from the new list the diff saw.

        The elements are Python objects whatever the inputs: those of a numpy array (`old`, or
        the new one) are what its ``.tolist()`` gives, those of an Arrow array what its
        ``.to_pylist()`` gives (ints, strs, bytes; never numpy or Arrow scalars, and never a mix
        of them with Python objects); those of a list or other sequence are its own objects.

        Raises ValueError when `old` does not have the length of the old list diffed.

        O(n + m); numpy and Arrow elements are converted in C (`new`'s inserted ones only).
        """
        if len(old) != len(self.old_to_new):
            raise ValueError(f"apply: old has {len(old)} elements, the diff was made from {len(self.old_to_new)}")
        old = _python_items(old)
        inserted = iter(_python_items(self._new, self.inserts))  # new's elements at the inserts, in order
        return [old[o] if o >= 0 else next(inserted) for o in self.new_to_old.tolist()]


def _python_items(values, indices=None):
    """The elements of `values` (only those at `indices` when given) as Python objects: a 1-D
    numpy array's as ``.tolist()`` gives them (an object array's are its own objects), an Arrow
    array's as ``.to_pylist()`` does, converted in C; those of lists, tuples, other sequences and
    numpy arrays of rows (diffed with ``key=``) as they are: the caller's objects, rows as rows.
    O(len(values)), or O(len(indices))."""
    numpy = sys.modules.get("numpy")  # a numpy array exists only once numpy is imported
    if numpy is not None and isinstance(values, numpy.ndarray) and values.ndim == 1:
        return (values if indices is None else values[indices]).tolist()
    if hasattr(values, "to_pylist"):  # Arrow arrays: pyarrow's, and others with to_pylist
        if indices is None:
            return values.to_pylist()
        if hasattr(values, "take"):  # pyarrow: take() reads numpy indices, not array.array
            return values.take(indices.tolist() if isinstance(indices, array.array) else indices).to_pylist()
        items = values.to_pylist()
        return [items[j] for j in indices.tolist()]
    return values if indices is None else [values[j] for j in indices.tolist()]
