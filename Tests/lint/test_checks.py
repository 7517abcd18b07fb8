#!/usr/bin/env python3
"""Shows that the lint checks can fail: each runs on a copy of Sources/Diffable with one
planted violation and must exit 1 naming its file, and on the untouched copy must exit 0.

    test_checks.py [SOURCE_ROOT]     (default: Sources/Diffable)
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (check script, file relative to the source root, text appended inside the file's last
# extension or type, what the check must name). Each plant is valid Swift in position.
PLANTS = [
    # A layer reaching up: Keys naming a DataSource type.
    ("check_layers.py", "Keys/IdentifierColumn.swift", "typealias PlantedBackEdge = DiffableDataSource<Int, Int, Int>\n",
     "Keys/IdentifierColumn.swift"),
    # A snapshot extension writing the storage's array directly.
    ("check_owned_writes.py", "Model/Snapshot/DiffableDataSourceSnapshot+Queries.swift",
     "extension DiffableDataSourceSnapshot { func planted() { storage.sectionOrder.append(0) } }\n",
     "DiffableDataSourceSnapshot+Queries.swift"),
    # A storage writing its column's identifiers instead of asking the column.
    ("check_owned_writes.py", "Model/Snapshot/SnapshotStorage.swift",
     "extension SnapshotStorage { func planted() { items.ids[0] = items.ids[1] } }\n",
     "SnapshotStorage.swift"),
    # ... or passing them inout.
    ("check_owned_writes.py", "Model/SectionSnapshot/SectionSnapshotStorage.swift",
     "extension SectionSnapshotStorage { func planted() { swap(&items.ids[0], &levels[0]) } }\n",
     "SectionSnapshotStorage.swift"),
]


def run(script: str, root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(HERE / script), str(root)], capture_output=True, text=True)


def main() -> int:
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/Diffable")
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for script in sorted({plant[0] for plant in PLANTS}):
            clean = run(script, source)
            if clean.returncode != 0:
                failures.append(f"{script} fails on the untouched tree:\n{clean.stdout}")
        for script, relative, text, named in PLANTS:
            root = Path(scratch) / "tree"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(source, root)
            with open(root / relative, "a") as file:
                file.write(text)
            planted = run(script, root)
            if planted.returncode != 1 or named not in planted.stdout + planted.stderr:
                failures.append(f"{script} missed a plant in {relative} (exit {planted.returncode}):\n{planted.stdout}{planted.stderr}")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"lint checks: {len(PLANTS)} planted violations caught, untouched tree passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
