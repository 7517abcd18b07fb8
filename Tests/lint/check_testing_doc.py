#!/usr/bin/env python3
"""docs/TESTING.md's table of make test's parts must name the parts of Tests/run_all.sh, in
order, with their make targets (so the page cannot drift from what `make test` runs)."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
script = (root / "Tests/run_all.sh").read_text(encoding="utf-8")
doc = (root / "docs/TESTING.md").read_text(encoding="utf-8")
parts = [(quoted or bare, target) for quoted, bare, target in
         re.findall(r'^part (?:"([^"]+)"|(\S+)) ([a-z-]+) ', script, flags=re.M)]
marker = "<!-- the parts of Tests/run_all.sh, in order;"
table = doc[doc.index(marker):].split("\n\n")[0] if marker in doc else ""
rows = re.findall(r"^\| ([^|]+?) \| `([a-z-]+)` \|", table, flags=re.M)
if not parts or rows != parts:
    print("docs/TESTING.md's table of parts differs from Tests/run_all.sh:", file=sys.stderr)
    print(f"  run_all.sh: {parts}\n  TESTING.md: {rows}", file=sys.stderr)
    sys.exit(1)
print(f"TESTING.md: the {len(parts)} parts of make test, as Tests/run_all.sh runs them")
