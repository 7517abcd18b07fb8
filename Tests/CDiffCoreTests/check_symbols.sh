#!/usr/bin/env bash
# Checks the C core's exported surface against everything that must list it.
#   check_symbols.sh LIBDFC.a LIBDFC.so [CONTRACT_TEST_BINARY]
# 1. Every symbol the libraries export starts with dfc_; the .so exports no dfc__ internals.
# 2. The public functions (the .so's exports) are exactly the ones named in dfc.h's
#    complexity table, in the README's promise table and, given the binary, in the
#    contract test's table (so a new export without a row there fails).
# 3. (The sources' floors are check_floors.sh's.)
# 4. The .so's soname is libdfc.so.MAJOR.MINOR from dfc.h's version macros.
set -euo pipefail
archive=$1 shared=$2 contract=${3:-}
header=CSources/CDiffCore/include/dfc.h
readme=CSources/CDiffCore/README.md
status=0
fail() { echo "$1" >&2; shift; [ $# -gt 0 ] && printf '%s\n' "$@" >&2; status=1; }

for file in "$archive" "$shared"; do
    bad=$(nm -g --defined-only "$file" | awk 'NF >= 3 { print $3 }' | grep -v '^dfc_' || true)
    [ -z "$bad" ] || fail "exported symbols without the dfc_ prefix in $file:" $bad
done
internal=$(nm -D --defined-only "$shared" | awk 'NF >= 3 { print $3 }' | grep '^dfc__' || true)
[ -z "$internal" ] || fail "internal symbols exported by $shared:" $internal

exported=$(nm -D --defined-only "$shared" | awk 'NF >= 3 && $2 == "T" && $3 ~ /^dfc_/ { print $3 }' | sort -u)
compare() { # name, list
    local missing extra
    missing=$(comm -23 <(echo "$exported") <(echo "$2" | sort -u))
    extra=$(comm -13 <(echo "$exported") <(echo "$2" | sort -u))
    [ -z "$missing" ] || fail "public functions missing from $1:" $missing
    [ -z "$extra" ] || fail "$1 names functions the library does not export:" $extra
}
compare "the complexity table in $header" \
    "$(sed -n '/^ \* Complexity of every public function/,/^ \* Thread safety/p' "$header" \
        | sed -n 's/^ \*     \(dfc_[a-z0-9_]*\) .*/\1/p')"
compare "the promise table in $readme" "$(sed -n 's/^| `\(dfc_[a-z0-9_]*\)` |.*/\1/p' "$readme")"
if [ -n "$contract" ]; then
    compare "the contract test's table ($contract --list-contract)" "$("$contract" --list-contract)"
fi

version_part() { awk -v name="DFC_VERSION_$1" '$1 ~ /define$/ && $2 == name { print $3 }' "$header"; }
expected_soname="libdfc.so.$(version_part MAJOR).$(version_part MINOR)"
soname=$(readelf -d "$shared" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "$expected_soname" ] || fail "soname of $shared is '$soname', expected $expected_soname"

count=$(echo "$exported" | wc -l)
[ "$status" -eq 0 ] && echo "symbol check: $count public functions, dfc_ prefix everywhere, internals hidden," \
    "each in dfc.h's complexity table, the README's promise table${contract:+ and the contract test}; soname $soname"
exit "$status"
