#!/usr/bin/env bash
# The C core's floors: every source file sits on one floor and may call only functions
# defined on floors below it — never its own floor, never one above. So the core has no
# circle, and two files on one floor (the flat and the two-level diff; the context and the
# identifier table) stay apart. A new source file must be given a floor here.
#   check_floors.sh LIBDFC.a                 the C core's floors, below
#   check_floors.sh ARCHIVE "F0 files" "F1 files" …   any other C archive's (the Python extension's)
set -euo pipefail
archive=$1
shift
# floor: files (lowest first); docs/ARCHITECTURE.md draws the same picture.
core_floors=(
    "dfc_heap dfc_status dfc_version dfc_keys"             # allocation, status texts, version, hashing
    "dfc_context dfc_idtable"                              # reusable scratch; the public identifier table
    "dfc_lis dfc_scratch_table dfc_unique dfc_plan dfc_steps" # algorithms on the context's scratch
    "dfc_match"                                            # matching two lists
    "dfc_diff dfc_sections"                                # the public diffs
)
if [ $# -gt 0 ]; then floors=("$@"); else floors=("${core_floors[@]}"); fi
declare -A floor_of
for index in "${!floors[@]}"; do for file in ${floors[$index]}; do floor_of[$file.o]=$index; done; done

listing=$(nm "$archive")
members=$(awk '/:$/ { sub(":$", "", $1); print $1 }' <<<"$listing")
status=0
for member in $members; do
    [ -n "${floor_of[$member]+x}" ] || { echo "check_floors: $member has no floor (add it to $0)" >&2; status=1; }
done
# symbol -> defining member
declare -A defined_by
while read -r member symbol; do defined_by[$symbol]=$member; done < <(
    awk '/:$/ { f = $1; sub(":$", "", f); next } NF >= 3 && $2 ~ /[TDBR]/ { print f, $3 }' <<<"$listing")
edges=0
while read -r member symbol; do
    target=${defined_by[$symbol]:-}
    [ -n "$target" ] && [ "$target" != "$member" ] || continue
    edges=$((edges + 1))
    if [ "${floor_of[$target]:-99}" -ge "${floor_of[$member]:-0}" ]; then
        echo "check_floors: $member (floor ${floor_of[$member]:-?}) calls $symbol of $target (floor ${floor_of[$target]:-?}): only lower floors may be called" >&2
        status=1
    fi
done < <(awk '/:$/ { f = $1; sub(":$", "", f); next } $1 == "U" { print f, $2 }' <<<"$listing" | sort -u)
[ "$status" -eq 0 ] && echo "check_floors: $(wc -w <<<"$members") files on ${#floors[@]} floors, $edges calls, every one to a lower floor"
exit "$status"
