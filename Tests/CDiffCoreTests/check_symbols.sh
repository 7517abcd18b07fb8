#!/usr/bin/env bash
# Every symbol a CDiffCore object or library exports must start with dfc_.
set -euo pipefail
status=0
for file in "$@"; do
    bad=$(nm -g --defined-only "$file" | awk 'NF >= 3 { print $3 }' | grep -v '^dfc_' || true)
    if [ -n "$bad" ]; then
        echo "exported symbols without the dfc_ prefix in $file:" >&2
        echo "$bad" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "symbol prefix check: all exported symbols start with dfc_"
exit "$status"
