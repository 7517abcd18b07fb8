#!/usr/bin/env bash
# `make c-test`: every check of the C core, each run even when one before it failed (a failing
# header example must not hide failing unit tests), then one report line per check.
#   run_c_test.sh BUILD_DIR
set -uo pipefail
build=${1:-build}
dir=Tests/CDiffCoreTests
names=() results=() failed=0

check() { # name, command…
    local name=$1; shift
    echo "--> $name"
    if "$@"; then results+=("passed"); else results+=("FAILED"); failed=$((failed + 1)); fi
    names+=("$name")
}

check "dfc.h alone in C" gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -ICSources/CDiffCore/include \
    -c "$dir/header_alone.c" -o "$build/header_alone_c.o"
check "dfc.h alone in C++" g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -ICSources/CDiffCore/include \
    -c "$dir/header_alone.cpp" -o "$build/header_alone_cpp.o"
check "exported symbols" "$dir/check_symbols.sh" "$build/libdfc.a" "$build/libdfc.so" "$build/cdiffcore-tests"
check "source floors" "$dir/check_floors.sh" "$build/libdfc.a"
check "dfc.h example" "$dir/check_header_example.sh" "$build"
check "unit tests" "$build/cdiffcore-tests"

echo "c-test report:"
for i in "${!names[@]}"; do printf '  %-20s %s\n' "${names[$i]}" "${results[$i]}"; done
echo "c-test checks: $(( ${#names[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
