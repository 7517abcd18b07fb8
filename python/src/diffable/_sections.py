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
                 "core_seconds", "_old_counts", "_new_counts")

    def __init__(self, raw, old_counts, new_counts):
        _, structural, refresh, oi, ni, os_, ns, seconds = raw
        self.batches = [_batch(b) for b in (structural, refresh) if b is not None]
        self.old_item_to_new, self.new_item_to_old = array("i", oi), array("i", ni)
        self.old_section_to_new, self.new_section_to_old = array("i", os_), array("i", ns)
        self.core_seconds, self._old_counts, self._new_counts = seconds, old_counts, new_counts

    def __repr__(self):
        return f"SectionsDiff(batches={self.batches!r})"

    def steps(self):
        """The batches as steps a view applies one at a time (Diffable's Swift ``steps``):
        ``("delete_item", (s, i))`` last first; ``("delete_section", s)`` last first;
        ``("move_section", a, b)``; ``("insert_section", s)``; ``("move_item", (s, i), (t, j))``;
        ``("insert_item", (s, i))`` at final paths; then the refresh batch's ``("reload_section", s)``,
        ``("reload_item", (s, i))`` and ``("reconfigure_item", (s, i))``. Each index is valid in
        the state the steps before it left. O(s + k log k + r log r)."""
        steps = []
        for batch in self.batches:
            steps += _refresh_steps(batch) if batch.is_refresh else self._structural_steps(batch)
        return steps

    def _structural_steps(self, batch):
        old_counts, new_counts = self._old_counts, self._new_counts
        deleted, inserted = set(batch.delete_sections), set(batch.insert_sections)
        move_to = {a: b for a, b in batch.move_sections}
        # UIKit's section map (B6): a moved section goes to its target, the others fill the free
        # new indices in order.
        taken = inserted | set(move_to.values())
        free = iter(t for t in range(len(new_counts)) if t not in taken)
        new_to_old = [-1] * len(new_counts)
        for o in range(len(old_counts)):
            if o not in deleted:
                new_to_old[move_to[o] if o in move_to else next(free)] = o
        steps = [("delete_item", p) for p in sorted((p for p in batch.delete_items if p[0] not in deleted), reverse=True)]
        steps += [("delete_section", s) for s in sorted(deleted, reverse=True)]
        steps += self._section_moves(batch, deleted, new_to_old)
        steps += [("insert_section", t) for t, o in enumerate(new_to_old) if o < 0]
        steps += self._item_moves(batch, deleted, new_to_old)
        steps += [("insert_item", p) for p in sorted(p for p in batch.insert_items if new_to_old[p[0]] >= 0)]
        steps += [("reconfigure_item", p) for p in sorted(set(batch.reconfigure_items))]
        return steps

    def _section_moves(self, batch, deleted, new_to_old):
        if not batch.move_sections:
            return []
        survivor = {}
        for o in range(len(self._old_counts)):
            if o not in deleted:
                survivor[o] = len(survivor)
        moved = {a for a, _ in batch.move_sections}
        stays = bytes(0 if o in moved else 1 for o in survivor)
        target = [survivor[o] for o in new_to_old if o >= 0]
        found = _moves([list(range(len(survivor)))], [target], stays)
        return [("move_section", a, b) for _, a, _, b in found]

    def _item_moves(self, batch, deleted, new_to_old):
        if not batch.move_items:
            return []
        old_counts, new_counts = self._old_counts, self._new_counts
        old_to_new = [-1] * len(old_counts)
        for t, o in enumerate(new_to_old):
            if o >= 0:
                old_to_new[o] = t
        touched = sorted({b[0] for _, b in batch.move_items} | {old_to_new[a[0]] for a, _ in batch.move_items})
        group, first = {}, []
        count = 0
        for index, section in enumerate(touched):
            group[section] = index
            first.append(count)
            count += old_counts[new_to_old[section]]

        def element(path):
            return first[group[old_to_new[path[0]]]] + path[1]

        stays = bytearray([1]) * count
        for a, _ in batch.move_items:
            stays[element(a)] = 0
        gone, arriving, moved_in = {}, {}, {}
        for s, i in batch.delete_items:
            if s not in deleted and old_to_new[s] in group:
                gone.setdefault(s, set()).add(i)
        for s, i in batch.insert_items:
            if s in group:
                arriving.setdefault(s, set()).add(i)
        for a, b in batch.move_items:
            moved_in.setdefault(b[0], []).append((b[1], element(a)))
        current, target = [], []
        for section in touched:
            old = new_to_old[section]
            base = first[group[section]]
            remaining = [base + i for i in range(old_counts[old]) if i not in gone.get(old, ())]
            current.append(remaining)
            carried = iter(e for e in remaining if stays[e])
            incoming = dict(moved_in.get(section, []))
            skip = arriving.get(section, ())
            target.append([incoming[j] if j in incoming else next(carried)
                           for j in range(new_counts[section]) if j not in skip])
        return [("move_item", (touched[fg], fi), (touched[tg], ti)) for fg, fi, tg, ti in _moves(current, target, bytes(stays))]


def _moves(current, target, stays):
    """Sequential moves over groups (the C core of the package computes them). O(e + moves log e)."""
    starts = [0]
    for group in current:
        starts.append(starts[-1] + len(group))
    target_starts = [0]
    for group in target:
        target_starts.append(target_starts[-1] + len(group))
    raw = _core.sequential_moves(_u32(starts), _u32([e for g in current for e in g]), _u32(target_starts),
                                 _u32([e for g in target for e in g]), stays)
    return _tuples(raw, 4)


def _refresh_steps(batch):
    return ([("reload_section", s) for s in sorted(set(batch.reload_sections))]
            + [("reload_item", p) for p in sorted(set(batch.reload_items))]
            + [("reconfigure_item", p) for p in sorted(set(batch.reconfigure_items))])


def _flatten(snapshot, side):
    """(section ids, flat item ids, section starts) of [(section_id, [item_ids])]. O(n)."""
    sections, items, starts = [], [], [0]
    for position, entry in enumerate(snapshot):
        try:
            section, section_items = entry
        except (TypeError, ValueError):
            raise TypeError(f"{side}[{position}] must be a (section_id, [item_ids]) pair") from None
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


def diff_sections(core, old, new, reload_items, reconfigure_items, reload_sections):
    old_sections, old_items, old_starts = _flatten(old, "old")
    new_sections, new_items, new_starts = _flatten(new, "new")
    requests = (("reload_items", list(reload_items)), ("reconfigure_items", list(reconfigure_items)),
                ("reload_sections", list(reload_sections)))
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
    return SectionsDiff(raw, _counts(old_starts), _counts(new_starts))


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
