#!/usr/bin/env bash
# The package as users get it: `python -m build` makes the sdist (python/ plus the core's sources,
# copied in by python/tools/dist_core.py) and the abi3 wheel; auditwheel gives the wheel its
# manylinux tag (the extension needs libc only: XXH3 is compiled inline) and abi3audit checks it
# uses the limited API of 3.11 alone; then the wheel is installed into a folder outside the
# repository and the package tests run there against it.
#
#   Tests/python/check_distribution.sh PYTHON OUT_DIR TEST_FILE...
#
# meson dist archives python/ as committed (git archive HEAD), so the wheel is built from the
# sdist only when python/ and the core have no uncommitted changes; otherwise from the working
# tree (so the tests see your edits), with a warning, and the sdist is only listed.
set -euo pipefail
PYTHON=$1 OUT=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# meson-python runs `meson` and meson.build runs `python3` from PATH: the interpreter's own first.
export PATH="$(dirname "$("$PYTHON" -c 'import sys; print(sys.executable)')"):$PATH"

rm -rf "$OUT" && mkdir -p "$OUT"
"$PYTHON" -m build --no-isolation --sdist --outdir "$OUT" "$ROOT/python" >"$OUT/build.log" 2>&1 \
    || { cat "$OUT/build.log"; exit 1; }
SDIST=$(ls "$OUT"/diffable-*.tar.gz)
LISTING=$(tar tzf "$SDIST")
for needed in cdiffcore/include/dfc.h cdiffcore/dfc_diff.c cdiffcore/dfc_keys.c src/diffable/_core/ids.c; do
    grep -q "/$needed\$" <<<"$LISTING" || { echo "the sdist lacks $needed"; exit 1; }
done
if [ -z "$(git -C "$ROOT" status --porcelain -- python CSources/CDiffCore)" ]; then
    mkdir -p "$OUT/sdist" && tar xzf "$SDIST" -C "$OUT/sdist"
    WHEEL_SOURCE=$(ls -d "$OUT"/sdist/diffable-*)
    echo "wheel built from the sdist $(basename "$SDIST")"
else
    WHEEL_SOURCE="$ROOT/python"
    echo "warning: python/ or the core has uncommitted changes; the sdist holds HEAD's, the wheel is built from the working tree"
fi
"$PYTHON" -m build --no-isolation --wheel --outdir "$OUT/raw" "$WHEEL_SOURCE" >>"$OUT/build.log" 2>&1 \
    || { cat "$OUT/build.log"; exit 1; }
"$PYTHON" -m auditwheel repair --plat manylinux_2_17_x86_64 --wheel-dir "$OUT" "$OUT"/raw/*.whl >>"$OUT/build.log" 2>&1 \
    || { cat "$OUT/build.log"; exit 1; }
WHEEL=$(ls "$OUT"/diffable-*manylinux*.whl)
"$PYTHON" -m abi3audit --strict --summary "$WHEEL"
echo "$(basename "$SDIST") and $(basename "$WHEEL")"

# Installed (pip, no dependencies) into an empty folder outside the repository, first on the path.
SITE=$(mktemp -d "${TMPDIR:-/tmp}/diffable-wheel.XXXXXX")
trap 'rm -rf "$SITE"' EXIT
"$PYTHON" -m pip install --quiet --no-deps --no-compile --target "$SITE/site" "$WHEEL"
! ldd "$SITE"/site/diffable/_core*.so | grep -v -E 'linux-vdso|libc\.so|ld-linux' | grep -q . \
    || { echo "the extension links more than libc:"; ldd "$SITE"/site/diffable/_core*.so; exit 1; }
cd "$SITE"
tests=()
for t in "$@"; do tests+=("$ROOT/Tests/python/$t"); done
DIFFABLE_EXPECT_INSTALLED="$SITE/site" PYTHONPATH="$SITE/site" \
    "$PYTHON" -m pytest -q -p no:cacheprovider --rootdir "$SITE" "${tests[@]}"
