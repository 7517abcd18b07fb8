"""The sectioned diff (diffable.diff_sections): snapshots of sections holding items, diffed into
UIKit-style batches (a structural batch, then a refresh batch), and their sequential steps."""
import bisect
import unicodedata
from array import array
from dataclasses import dataclass, field

from . import _core
from ._errors import DuplicateError, UnknownIdentifierError, group_duplicates

Path = tuple  # (section, item)


@dataclass(frozen=True)
class Batch:
    """One performBatchUpdates worth of changes, in UIKit's index spaces: deletes, reloads and move
    sources in the old snapshot; inserts and move targets in the new one (a refresh batch's
    positions are final). Every list is ascending; moves by destination."""

    delete_sections: list = field(default_factory=list)
    insert_sections: list = field(default_factory=list)
    move_sections: list = field(default_factory=list)  # [(from, to)]
    reload_sections: list = field(default_factory=list)
    delete_items: list = field(default_factory=list)  # [(section, item)]
    insert_items: list = field(default_factory=list)
    move_items: list = field(default_factory=list)  # [((section, item), (section, item))]
    reload_items: list = field(default_factory=list)
    reconfigure_items: list = field(default_factory=list)

    @property
    def is_refresh(self):
        """True for the second batch: reloads and reconfigures only."""
        return not (self.delete_sections or self.insert_sections or self.move_sections or self.delete_items
                    or self.insert_items or self.move_items)


def _int32s(data):
    return array("i", data)


def _u32(values):
    return array("I", values).tobytes()


def _ints(data):
    return memoryview(data).cast("I").tolist()


def _tuples(data, width):
    flat = _ints(data)
    return [tuple(flat[k:k + width]) for k in range(0, len(flat), width)]


def _batch(raw):
    ds, ins, ms, rs, di, ii, mi, ri, ci = raw
    return Batch(_ints(ds), _ints(ins), _tuples(ms, 2), _ints(rs), _tuples(di, 2), _tuples(ii, 2),
                 [((a, b), (c, d)) for a, b, c, d in _tuples(mi, 4)], _tuples(ri, 2), _tuples(ci, 2))


def _nfc(identifier):
    return unicodedata.normalize("NFC", identifier) if isinstance(identifier, str) else identifier


class SectionsDiff:
    """The result of diff_sections.

    Attributes:
        batches: [structural] and/or [refresh] Batch objects, in order (empty when nothing changed).
        old_item_to_new, new_item_to_old: flat item maps (old flat index -> new, -1 when absent).
        old_section_to_new, new_section_to_old: section maps.
        core_seconds: time in the C core.
    """

    __slots__ = ("batches", "old_item_to_new", "new_item_to_old", "old_section_to_new", "new_section_to_old",
                 "core_seconds", "_old_counts", "_new_counts", "_new")

    def __init__(self, raw, old_counts, new_counts, new):
        _, structural, refresh, oi, ni, os_, ns, seconds = raw
        self.batches = [_batch(b) for b in (structural, refresh) if b is not None]
        self.old_item_to_new, self.new_item_to_old = _int32s(oi), _int32s(ni)
        self.old_section_to_new, self.new_section_to_old = _int32s(os_), _int32s(ns)
        self.core_seconds, self._old_counts, self._new_counts = seconds, old_counts, new_counts
        self._new = new  # (section ids, flat item ids, starts) of the new snapshot diffed

    def apply(self, old):
        """The new snapshot built from `old`, as ``[(section_id, [item_ids])]``: kept sections and
        items are taken from `old` (so objects passed with their own identity survive), inserted
        ones from the new snapshot the diff saw. O(n + m + s).

        Raises ValueError when `old` does not have the shape (sections and items per section) of
        the old snapshot diffed."""
        old_sections, old_items, old_starts = _flatten(old, "old")
        if _counts(old_starts) != self._old_counts:
            raise ValueError(f"apply: old has {len(old_sections)} sections holding {_counts(old_starts)} items; "
                             f"the diff was made from {len(self._old_counts)} holding {self._old_counts}")
        new_sections, new_items, new_starts = self._new
        section_from, item_from = self.new_section_to_old.tolist(), self.new_item_to_old.tolist()
        items = [old_items[o] if o >= 0 else new_items[f] for f, o in enumerate(item_from)]
        return [(old_sections[o] if o >= 0 else new_sections[s], items[new_starts[s]:new_starts[s + 1]])
                for s, o in enumerate(section_from)]

    def __repr__(self):
        return f"SectionsDiff(batches={self.batches!r})"

    def steps(self):
        """The batches as steps a view applies one at a time, listed by the C core in the order
        every Diffable language shares (docs/ALGORITHM.md, "Steps"): ``("delete_item", (s, i))``
        last first; ``("delete_section", s)`` last first; ``("move_section", a, b)``;
        ``("insert_section", s)``; ``("move_item", (s, i), (t, j))``; ``("insert_item", (s, i))``
        at final paths; then the refresh batch's ``("reload_section", s)``, ``("reload_item", (s, i))``
        and ``("reconfigure_item", (s, i))``. Each index is valid in the state the steps before it
        left. O(s + k log k + r log r)."""
        steps = []
        for batch in self.batches:
            counts = self._new_counts if batch.is_refresh else self._old_counts
            steps += _core.batch_steps(
                _u32(counts), _u32(self._new_counts), _u32(batch.delete_sections), _u32(batch.insert_sections),
                _u32([x for move in batch.move_sections for x in move]), _u32(batch.reload_sections),
                _u32([x for path in batch.delete_items for x in path]),
                _u32([x for path in batch.insert_items for x in path]),
                _u32([x for a, b in batch.move_items for x in (*a, *b)]),
                _u32([x for path in batch.reload_items for x in path]),
                _u32([x for path in batch.reconfigure_items for x in path]))
        return steps


def _flatten(snapshot, side):
    """(section ids, flat item ids, section starts) of [(section_id, [item_ids])]. O(n)."""
    if isinstance(snapshot, (set, frozenset)):
        raise TypeError(f"{side} is a {type(snapshot).__name__}: its iteration order is arbitrary; "
                        "pass a list of (section_id, [item_ids]) pairs")
    sections, items, starts = [], [], [0]
    for position, entry in enumerate(snapshot):
        try:
            section, section_items = entry
        except (TypeError, ValueError):
            raise TypeError(f"{side}[{position}] must be a (section_id, [item_ids]) pair") from None
        if isinstance(section_items, (str, bytes, set, frozenset)) or not hasattr(section_items, "__iter__"):
            raise TypeError(f"{side}[{position}]: a section's items must be an ordered iterable of identifiers "
                            f"(a list or tuple), not {type(section_items).__name__}")
        sections.append(section)
        items.extend(section_items)
        starts.append(len(items))
    return sections, items, starts


def _refresh_indices(requests, known, unknown):
    """Indices into the new snapshot of refresh requests; the others go to `unknown`
    ({NFC identifier: [as first written, [[position], ...]]}). O(len(requests))."""
    found = []
    for position, identifier in enumerate(requests):
        index = known.get(_nfc(identifier))
        if index is None:
            unknown.setdefault(_nfc(identifier), [identifier, []])[1].append([position])
        else:
            found.append(index)
    return found


def _request_list(requests, name):
    """The identifiers of one refresh request as a list; a bare str or bytes is refused (it would
    be read as its characters, one identifier each). O(len(requests))."""
    if isinstance(requests, (str, bytes)):
        raise TypeError(f"{name} is a {type(requests).__name__}; pass a list of identifiers "
                        f"(e.g. [{requests!r}])")
    return list(requests)


def diff_sections(core, old, new, reload_items, reconfigure_items, reload_sections):
    old_sections, old_items, old_starts = _flatten(old, "old")
    new_sections, new_items, new_starts = _flatten(new, "new")
    requests = (("reload_items", _request_list(reload_items, "reload_items")),
                ("reconfigure_items", _request_list(reconfigure_items, "reconfigure_items")),
                ("reload_sections", _request_list(reload_sections, "reload_sections")))
    indices, unknown = [b"", b"", b""], (None, {})
    if any(values for _, values in requests):
        # Refresh requests name identifiers; the core takes indices into the new snapshot.
        items = {_nfc(i): k for k, i in enumerate(new_items)}
        sections = {_nfc(s): k for k, s in enumerate(new_sections)}
        for slot, (name, values) in enumerate(requests):
            missing = {}
            indices[slot] = _u32(_refresh_indices(values, sections if name == "reload_sections" else items, missing))
            if missing and unknown[0] is None:
                unknown = (name, missing)
    raw = core._diff_sections(old_sections, old_items, _u32(old_starts), new_sections, new_items, _u32(new_starts),
                              *indices)
    # Duplicates (old, then new) come before unknown identifiers, which only the new snapshot has.
    if raw[0] == "duplicates":
        _raise_duplicates(raw[1], (old_sections, old_items, old_starts), (new_sections, new_items, new_starts))
    if unknown[0] is not None:
        name, missing = unknown
        raise UnknownIdentifierError("new", name, [v[0] for v in missing.values()], [v[1] for v in missing.values()])
    return SectionsDiff(raw, _counts(old_starts), _counts(new_starts), (new_sections, new_items, new_starts))


def _counts(starts):
    return [b - a for a, b in zip(starts, starts[1:])]


def _raise_duplicates(entries, old, new):
    """DuplicateError for the first snapshot with duplicates: sections before items."""
    for side, name, (sections, items, starts) in ((0, "old", old), (1, "new", new)):
        def path(flat):
            s = bisect.bisect_right(starts, flat) - 1  # the last section starting at or before it
            return [s, flat - starts[s]]
        for is_section, kind, names, position in ((1, "section", sections, lambda p: [p]), (0, "item", items, path)):
            identifiers, positions = group_duplicates(entries, side, is_section, names.__getitem__, position)
            if identifiers:
                raise DuplicateError(name, kind, identifiers, positions)
    raise AssertionError("the core reported duplicates that none of the lists holds")  # pragma: no cover
