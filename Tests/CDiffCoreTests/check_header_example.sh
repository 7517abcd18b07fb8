#!/usr/bin/env bash
# The complete example in dfc.h's overview compiles, runs and prints what its comments say.
set -euo pipefail
header=CSources/CDiffCore/include/dfc.h
build=${1:-build}
sed -n '/^ \*     #include <dfc.h>/,/^ \*     }$/p' "$header" | sed 's/^ \*     //; s/^ \*$//' > "$build/header_example.c"
cc -std=c11 -Wall -Wextra -Werror -ICSources/CDiffCore/include "$build/header_example.c" "$build/libdfc.a" -o "$build/header_example"
output=$("$build/header_example")
expected=$'move 0 -> 3\ninsert 4'
if [ "$output" != "$expected" ]; then
    echo "dfc.h example printed:"; echo "$output"; echo "expected:"; echo "$expected"; exit 1
fi
echo "dfc.h example: compiles and prints what it documents"
