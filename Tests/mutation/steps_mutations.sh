#!/usr/bin/env bash
# Plants two mutations in the C core's step order (CSources/CDiffCore/dfc_steps.c), one at a
# time, and requires each to fail the fixtures in all three languages: the C fixture reader,
# the Swift fixture tests and the Python package's fixture tests. Restores the file afterwards
# (even when interrupted). Not part of make test: it rebuilds the Swift tests and the Python
# package twice (about 10 minutes on 2 cores). Run: make steps-mutations
set -uo pipefail
cd "$(dirname "$0")/../.."
file=CSources/CDiffCore/dfc_steps.c
backup=$(mktemp)
cp "$file" "$backup"
restore() { cp "$backup" "$file"; rm -f "$backup"; }
trap restore EXIT

plant() { # name, python replacement (old, new)
    python3 - "$file" "$2" "$3" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
assert text.count(old) == 1, f"mutation anchor not found once: {old!r}"
open(path, "w").write(text.replace(old, new))
PY
}

run_languages() { # prints one verdict per language: "caught" when its fixture check failed
    local c swift python
    make --no-print-directory c-fixtures >/tmp/mutation-c.log 2>&1 && c="missed" || c="caught"
    { swift build --build-tests >/tmp/mutation-swift.log 2>&1 &&
      swift test --skip-build --filter FixtureTests >>/tmp/mutation-swift.log 2>&1; } && swift="missed" || swift="caught"
    { make --no-print-directory python-package >/tmp/mutation-python.log 2>&1 &&
      (cd Tests/python && "${PYTHON:-python3}" -m pytest -q -p no:cacheprovider test_fixtures.py -k package >>/tmp/mutation-python.log 2>&1); } \
        && python="missed" || python="caught"
    echo "C $c ($(grep -c '^FAIL' /tmp/mutation-c.log) fixtures failed) · Swift $swift ($(grep -c 'steps differ' /tmp/mutation-swift.log) step mismatches) · Python $python ($(grep -Eo '[0-9]+ failed' /tmp/mutation-python.log | tail -1))"
    [ "$c$swift$python" = caughtcaughtcaught ]
}

status=0
echo "mutation 1: section deletes listed before item deletes (two phases swapped)"
plant 1 '        /* 1. item deletes, last first; 2. section deletes, last first. */
        for (size_t i = in.delete_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_ITEM, in.deletes[i].section, in.deletes[i].item, in.deletes[i].section,
                      in.deletes[i].item);
        for (size_t i = in.delete_section_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_SECTION, in.delete_sections[i], 0, in.delete_sections[i], 0);' \
'        for (size_t i = in.delete_section_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_SECTION, in.delete_sections[i], 0, in.delete_sections[i], 0);
        for (size_t i = in.delete_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_ITEM, in.deletes[i].section, in.deletes[i].item, in.deletes[i].section,
                      in.deletes[i].item);'
run_languages || status=1
cp "$backup" "$file"
echo "mutation 2: a move's target index shifted by one when it is not the front"
plant 2 '            dfc__fenwick_add(tree, slot_count, destination, 1);
            if (group_section == NULL)' \
'            dfc__fenwick_add(tree, slot_count, destination, 1);
            if (to_index > 0) to_index--;
            if (group_section == NULL)'
run_languages || status=1
cp "$backup" "$file"
# Rebuild what the mutations left stale.
make --no-print-directory python-package >/dev/null 2>&1
swift build --build-tests >/dev/null 2>&1
[ "$status" -eq 0 ] && echo "steps mutations: 2 planted, 2 caught in C, Swift and Python" || echo "steps mutations: some mutation was missed"
exit "$status"
