#!/usr/bin/env bash
# make gtk-valgrind: memcheck over `diffable-gtk-tests --leak-run N` (default 1000 applies) on a
# headless display, with scripts/valgrind.supp; prints memcheck's leak summary and fails unless
# nothing is definitely lost and memcheck saw no other error. Valgrind 3.19 cannot read the DWARF 5 that Swift writes, so it runs
# a copy without debug information (stacks keep the symbol names).
set -euo pipefail
cd "$(dirname "$0")/.."
applies=${1:-1000}
swift build --product diffable-gtk-tests
mkdir -p .build/valgrind
objcopy --strip-debug .build/debug/diffable-gtk-tests .build/valgrind/diffable-gtk-tests
log=.build/valgrind/memcheck.log
# GLib 2.74's slice allocator hides frees from memcheck; gc-friendly clears freed pointers.
G_SLICE=always-malloc G_DEBUG=gc-friendly,fatal-criticals scripts/with-display.sh \
    valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --num-callers=60 --suppressions=scripts/valgrind.supp --log-file="$log" \
    .build/valgrind/diffable-gtk-tests --leak-run "$applies"
sed -n '/LEAK SUMMARY/,/suppressed:/p' "$log" | sed 's/^==[0-9]*== //'
grep -h "ERROR SUMMARY" "$log" | sed 's/^==[0-9]*== //'
if ! grep -q "definitely lost: 0 bytes in 0 blocks" "$log"; then
    if grep -q "LEAK SUMMARY" "$log"; then
        echo "gtk-valgrind: memory definitely lost (full report: GTK/$log)" >&2
    else
        echo "gtk-valgrind: no leak summary (memcheck stopped early; see GTK/$log)" >&2
    fi
    exit 1
fi
if ! grep -q "ERROR SUMMARY: 0 errors" "$log"; then
    echo "gtk-valgrind: memcheck reported errors (full report: GTK/$log)" >&2
    exit 1
fi
echo "gtk-valgrind: definitely lost 0, no errors, after $applies applies (report: GTK/$log)"
