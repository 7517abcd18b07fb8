#!/usr/bin/env python3
"""docs/TESTING.md's table of the test parts must name the parts of Tests/run_all.sh, in
order, with their make targets and tiers (so the page cannot drift from what `make test` and
`make test-long` run)."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
script = (root / "Tests/run_all.sh").read_text(encoding="utf-8")
doc = (root / "docs/TESTING.md").read_text(encoding="utf-8")
# (name, target, tier): a part belongs to the tier of the last `in_tier` line above it.
parts = []
tier = ""
for line in script.splitlines():
    if m := re.match(r"^in_tier (core|long)$", line):
        tier = {"core": "test", "long": "test-long"}[m.group(1)]
    elif m := re.match(r'^part (?:"([^"]+)"|(\S+)) ([a-z-]+) ', line):
        parts.append((m.group(1) or m.group(2), m.group(3), tier))
marker = "<!-- the parts of Tests/run_all.sh, in order;"
table = doc[doc.index(marker):].split("\n\n")[0] if marker in doc else ""
rows = re.findall(r"^\| ([^|]+?) \| `([a-z-]+)` \| (test|test-long) \|", table, flags=re.M)
if not parts or rows != parts:
    print("docs/TESTING.md's table of parts differs from Tests/run_all.sh:", file=sys.stderr)
    print(f"  run_all.sh: {parts}\n  TESTING.md: {rows}", file=sys.stderr)
    sys.exit(1)
print(f"TESTING.md: the {len(parts)} parts of make test and make test-long, as Tests/run_all.sh runs them")
