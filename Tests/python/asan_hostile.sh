#!/usr/bin/env bash
# The extension under AddressSanitizer (and UBSan) against hostile input, in an ordinary CPython:
# the extension is built with -fsanitize=address,undefined (meson's b_sanitize) into a folder
# of its own, the ASan runtime is preloaded (the interpreter itself is not instrumented), and
# PYTHONMALLOC=malloc sends Python's objects through malloc too, so ASan sees their memory.
#
#   Tests/python/asan_hostile.sh PYTHON OUT_DIR [TEST_FILE...]   (make python-asan)
#
# Leak checking is off: CPython keeps memory until exit by design.
set -euo pipefail
PYTHON=$1 OUT=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$(dirname "$("$PYTHON" -c 'import sys; print(sys.executable)')"):$PATH"
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(test_hostile_core.py test_package.py test_json_patch.py)
rm -rf "$OUT" && mkdir -p "$OUT"
"$PYTHON" -m pip install --quiet --no-build-isolation --no-deps --target "$OUT/site" \
    -Csetup-args=-Db_sanitize=address,undefined -Csetup-args=-Dbuildtype=debug -Csetup-args=-Db_ndebug=false \
    -Cbuild-dir="$OUT/build" "$ROOT/python" >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
SYMBOLS=$(nm -D "$OUT"/site/diffable/_core*.so)
grep -q __asan_init <<<"$SYMBOLS" || { echo "the extension is not instrumented"; exit 1; }
RUNTIME=$(${CC:-cc} -print-file-name=libasan.so)
cd "$OUT"
tests=()
for t in "${TESTS[@]}"; do tests+=("$ROOT/Tests/python/$t"); done
LD_PRELOAD="$RUNTIME" PYTHONMALLOC=malloc ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 DIFFABLE_EXPECT_INSTALLED="$OUT/site" PYTHONPATH="$OUT/site" \
    "$PYTHON" -m pytest -q -p no:cacheprovider --rootdir "$OUT" "${tests[@]}"
