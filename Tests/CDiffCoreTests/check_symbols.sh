#!/usr/bin/env bash
# Checks the C core's exported surface against everything that must list it.
#   check_symbols.sh LIBDFC.a LIBDFC.so [CONTRACT_TEST_BINARY]
# 1. Every symbol the libraries export starts with dfc_; the .so exports no dfc__ internals.
# 2. The public functions (the .so's exports) are exactly the ones named in dfc.h's
#    complexity table, in the README's promise table and, given the binary, in the
#    contract test's table (so a new export without a row there fails).
# 3. The sources' rooms: the two-level diff does not reach into the flat diff's file,
#    and the context and the identifier table do not call each other.
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
        | sed -n 's/^ \*     \(dfc_[a-z_]*\) .*/\1/p')"
compare "the promise table in $readme" "$(sed -n 's/^| `\(dfc_[a-z_]*\)` |.*/\1/p' "$readme")"
if [ -n "$contract" ]; then
    compare "the contract test's table ($contract --list-contract)" "$("$contract" --list-contract)"
fi

# Which object file defines and which uses each symbol, from the archive's members.
uses() { # object that must not use anything defined by the second object
    local defined used
    defined=$(nm "$archive" | awk -v o="$2:" '/:$/ { f = $1; next } f == o && NF >= 3 && $2 ~ /[TDBR]/ { print $3 }' | sort -u)
    used=$(nm "$archive" | awk -v o="$1:" '/:$/ { f = $1; next } f == o && $1 == "U" { print $2 }' | sort -u)
    comm -12 <(echo "$defined") <(echo "$used")
}
for pair in "dfc_sections.o dfc_diff.o" "dfc_context.o dfc_idtable.o" "dfc_idtable.o dfc_context.o"; do
    set -- $pair
    crossing=$(uses "$1" "$2")
    [ -z "$crossing" ] || fail "$1 calls into $2 (keep the rooms apart):" $crossing
done

version_part() { awk -v name="DFC_VERSION_$1" '$1 ~ /define$/ && $2 == name { print $3 }' "$header"; }
expected_soname="libdfc.so.$(version_part MAJOR).$(version_part MINOR)"
soname=$(readelf -d "$shared" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "$expected_soname" ] || fail "soname of $shared is '$soname', expected $expected_soname"

count=$(echo "$exported" | wc -l)
[ "$status" -eq 0 ] && echo "symbol check: $count public functions, dfc_ prefix everywhere, internals hidden," \
    "each in dfc.h's complexity table, the README's promise table${contract:+ and the contract test}; rooms apart; soname $soname"
exit "$status"
