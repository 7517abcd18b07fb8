"""The errors a diff raises for input it cannot diff (every other problem is a TypeError,
ValueError or OverflowError naming the list and position)."""


class DuplicateError(ValueError):
    """An identifier occurs more than once in one list (or one snapshot).

    Attributes:
        snapshot: ``"old"`` or ``"new"``: the first list with duplicates (old is checked first).
        kind: ``"item"`` or ``"section"`` (sections are reported before items).
        identifiers: every duplicated identifier, in order of first occurrence, as first written.
        positions: for each identifier, every position it occurs at: ints for a flat diff,
            ``[section]`` lists for sections and ``[section, item]`` lists for items of a
            sectioned diff.
    """

    def __init__(self, snapshot, kind, identifiers, positions):
        self.snapshot, self.kind = snapshot, kind
        self.identifiers, self.positions = identifiers, positions
        shown = "; ".join(f"{i!r} at {p}" for i, p in zip(identifiers[:10], positions[:10]))
        more = f" and {len(identifiers) - 10} more" if len(identifiers) > 10 else ""
        super().__init__(f"{len(identifiers)} duplicate {kind} identifier(s) in {snapshot}: {shown}{more}")

    def __reduce__(self):
        return type(self), (self.snapshot, self.kind, self.identifiers, self.positions)


class UnknownIdentifierError(ValueError):
    """A refresh request (reload_items, reconfigure_items, reload_sections) names an identifier
    that the new snapshot does not hold.

    Attributes: snapshot (``"new"``), list (the argument's name), identifiers (as first written,
    in order of first occurrence), positions (``[index]`` lists into that argument).
    """

    def __init__(self, snapshot, list_name, identifiers, positions):
        self.snapshot, self.list, self.identifiers, self.positions = snapshot, list_name, identifiers, positions
        super().__init__(f"{list_name} names {len(identifiers)} identifier(s) not in the new snapshot: "
                         + ", ".join(repr(i) for i in identifiers[:10]))

    def __reduce__(self):
        return type(self), (self.snapshot, self.list, self.identifiers, self.positions)


class InconsistentHashWarning(RuntimeWarning):
    """One object is both deleted from the old list and inserted into the new one: it did not
    match itself, because its hash changed between the two reads or its == is not reflexive.
    The diff is still valid (a delete and an insert instead of a move)."""


def group_duplicates(entries, side, is_section, name_of, position_of):
    """(identifiers, positions) of the core's duplicate entries (side, is_section, first, duplicate)
    for one side and kind, grouped by first occurrence. O(d log d)."""
    groups = {}
    for entry_side, entry_section, first, duplicate in entries:
        if entry_side == side and entry_section == is_section:
            groups.setdefault(first, [first]).append(duplicate)
    ordered = sorted(groups.items())
    return ([name_of(first) for first, _ in ordered],
            [[position_of(p) for p in sorted(set(found))] for _, found in ordered])
