#!/usr/bin/env bash
# `make c-install-test`: installs the C library alone (`make install-lib`) into a temporary
# prefix, then builds install_example.c with `pkg-config --cflags --libs dfc` from that prefix
# and runs it three ways: shared with an rpath, shared with LD_LIBRARY_PATH, and static.
# Each must print the installed version and the diff's counts. Also fails when install-lib
# built anything Swift. Usage: check_install.sh MAKE
set -uo pipefail
make_command=${1:-make}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
passed=0 failed=0
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
ok() { echo "ok   $1"; passed=$((passed + 1)); }

if ! $make_command --no-print-directory install-lib PREFIX="$prefix" > "$scratch/make.log" 2>&1; then
    cat "$scratch/make.log"
    echo "C install: 0 passed, 1 failed (make install-lib PREFIX=$prefix failed)"
    exit 1
fi
if grep -q "swift build" "$scratch/make.log"; then fail "install-lib built the Swift CLI"; fi
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cflags=$(pkg-config --cflags dfc | sed "s/ *$//") libs=$(pkg-config --libs dfc) libdir=$(pkg-config --variable=libdir dfc)
version=$(pkg-config --modversion dfc)
[ "$cflags" = "-I$prefix/include" ] || fail "dfc.pc's Cflags are '$cflags', not -I$prefix/include"
[ "$libdir" = "$prefix/lib" ] || fail "dfc.pc's libdir is '$libdir', not $prefix/lib"
expected="dfc $version: 1 moves, 1 inserts, 0 deletes"

# run NAME [ENV…] -- compile arguments: builds and runs the example, compares its output.
run() {
    local name=$1 runner=$2
    shift 2
    if ! cc -std=c11 -Wall -Wextra -Werror "$here/install_example.c" "$@" -o "$scratch/$name" 2> "$scratch/$name.err"; then
        fail "$name: does not compile: $(head -3 "$scratch/$name.err")"
        return
    fi
    local output
    output=$(env $runner "$scratch/$name" 2>&1)
    if [ "$output" = "$expected" ]; then ok "$name: $output"; else fail "$name: printed '$output', expected '$expected'"; fi
}
# shellcheck disable=SC2086 # pkg-config's flags are words
run "shared, rpath" "" $cflags $libs -Wl,-rpath,"$libdir"
# shellcheck disable=SC2086
run "shared, LD_LIBRARY_PATH" "LD_LIBRARY_PATH=$libdir" $cflags $libs
# shellcheck disable=SC2086
run "static" "" $cflags "$libdir/libdfc.a"
if [ -x "$scratch/static" ] && ldd "$scratch/static" 2>/dev/null | grep -q libdfc; then fail "the static build still loads libdfc.so"; fi
echo "C install: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
