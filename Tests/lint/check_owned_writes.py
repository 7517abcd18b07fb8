#!/usr/bin/env python3
"""Checks that the snapshot storages' stored arrays are written only by their owners.

The identifier column's fields (`ids`, `storedKeys`, `table`) and the storages' arrays are
plain stored properties, not `private(set)`: read from another file, a `private(set)`
property goes through its getter, which hands back a retained copy (a retain and a release
per identifier read in code not specialized for the identifier type). Plain properties are
read in place, and this check keeps the write side private instead (docs/ARCHITECTURE.md,
"How the column is read"):

- a column's fields, reached as `items.ids`, `items.storedKeys`, `items.table` (the name both
  storages give their column), are written only in Keys/IdentifierColumn*.swift;
- a storage's arrays, reached as `storage.<name>`, are written only in the storage's own files
  (Model/Snapshot/SnapshotStorage*.swift, Model/SectionSnapshot/SectionSnapshotStorage*.swift).

A write is an assignment (`=`, `+=`, `-=`, also through a subscript), a mutating call of the
standard collections (`append`, `remove…`, `replace…`, `swapAt`, `withUnsafeMutable…`, …) or
an `&` (inout) use. Each one found elsewhere is printed as FILE:LINE and the check fails.

    check_owned_writes.py [SOURCE_ROOT]     (default: Sources/Diffable)
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_layers import strip_code  # noqa: E402  (comments and strings blanked, lines kept)

COLUMN_FIELDS = ["ids", "storedKeys", "table"]
COLUMN_OWNER = re.compile(r"^Keys/IdentifierColumn[^/]*\.swift$")
STORAGE_FIELDS = [
    "items", "itemPlace", "sectionIDs", "sectionKeys", "sectionItems", "sectionPosition", "sectionOrder",
    "levels", "parents", "sizes", "expanded",
]
STORAGE_OWNER = re.compile(r"^Model/(Snapshot/SnapshotStorage|SectionSnapshot/SectionSnapshotStorage)[^/]*\.swift$")
MUTATORS = (
    r"append|insert|remove\w*|replace\w*|swapAt|reserveCapacity|withUnsafeMutable\w*|sort|reverse|popLast|"
    r"popFirst|partition|shuffle|compact|truncate|formUnion|subtract|set\w*"
)


def write_pattern(receiver: str, fields: list[str]) -> re.Pattern:
    names = "|".join(fields)
    target = rf"\b{receiver}\.(?:{names})\b"
    return re.compile(
        rf"(?<!&)&(?!&)\s*{target}"  # passed inout
        rf"|{target}(?:\s*\[[^\]]*\])*\s*(?:[-+*/]?=)(?!=)"  # assigned, whole or through a subscript
        rf"|{target}(?:\s*\[[^\]]*\])*\.(?:{MUTATORS})\s*[({{]"  # a mutating call
    )


RULES = [
    (write_pattern("items", COLUMN_FIELDS), COLUMN_OWNER, "a column field written outside IdentifierColumn"),
    (write_pattern("storage", STORAGE_FIELDS), STORAGE_OWNER, "a storage array written outside its storage"),
]


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/Diffable")
    failures = 0
    files = sorted(root.rglob("*.swift"))
    for path in files:
        relative = path.relative_to(root).as_posix()
        lines = strip_code(path.read_text())
        for pattern, owner, message in RULES:
            if owner.match(relative):
                continue
            for number, line in enumerate(lines, 1):
                if pattern.search(line):
                    print(f"{path}:{number}: {message}: {line.strip()}")
                    failures += 1
    if failures:
        print(f"owned writes: {failures} write(s) outside the owner (docs/ARCHITECTURE.md, \"How the column is read\")")
        return 1
    print(f"owned writes: {len(files)} files, storage arrays and column fields written only by their owners")
    return 0


if __name__ == "__main__":
    sys.exit(main())
