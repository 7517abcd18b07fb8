#!/usr/bin/env bash
# 1. Every symbol a CDiffCore object or library exports starts with dfc_.
# 2. The shared library exports only the public API (no dfc__ internals).
# 3. Every public function is exercised by the C tests (a new export without a test fails).
set -euo pipefail
status=0
tests=Tests/CDiffCoreTests/test_main.c
for file in "$@"; do
    bad=$(nm -g --defined-only "$file" | awk 'NF >= 3 { print $3 }' | grep -v '^dfc_' || true)
    if [ -n "$bad" ]; then
        echo "exported symbols without the dfc_ prefix in $file:" >&2
        echo "$bad" >&2
        status=1
    fi
    case "$file" in
    *.so)
        internal=$(nm -D --defined-only "$file" | awk 'NF >= 3 { print $3 }' | grep '^dfc__' || true)
        if [ -n "$internal" ]; then
            echo "internal symbols exported by $file:" >&2
            echo "$internal" >&2
            status=1
        fi
        for symbol in $(nm -D --defined-only "$file" | awk 'NF >= 3 && $2 == "T" { print $3 }' | grep '^dfc_'); do
            if ! grep -qw "$symbol" "$tests"; then
                echo "public function $symbol has no test in $tests" >&2
                status=1
            fi
        done
        ;;
    esac
done
[ "$status" -eq 0 ] && echo "symbol check: dfc_ prefix everywhere, internals hidden, every public function tested"
exit "$status"
