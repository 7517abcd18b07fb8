#!/usr/bin/env bash
# `make test`: every part in order, each part's output as it runs, then one line that
# says what ran and what passed, with the time taken. Exits non-zero if any part failed
# (every part still runs, so one failure does not hide another).
set -uo pipefail
MAKE=${MAKE:-make}
start=$(date +%s)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
summary=() failures=()

# part NAME TARGET PATTERN [all]: runs `make TARGET`, then takes the last line matching PATTERN
# as the count (with `all`: every matching line, joined with " + ", one per fuzz target).
part() {
    local name=$1 target=$2 pattern=$3 which=${4:-last}
    echo "==> $name (make $target)"
    # A part that hangs is stopped (and fails) instead of eating the whole CI budget.
    timeout "${PART_TIMEOUT:-1800}" $MAKE --no-print-directory "$target" 2>&1 | tee "$logs/$target.log"
    local status=${PIPESTATUS[0]}
    local count
    if [ "$which" = all ]; then
        count=$(grep -Eo "$pattern" "$logs/$target.log" | paste -sd '|' | sed 's/|/ + /g')
    else
        count=$(grep -Eo "$pattern" "$logs/$target.log" | tail -1)
    fi
    if [ "$status" -eq 0 ]; then
        summary+=("$name ${count:-ok}")
    else
        summary+=("$name FAILED")
        failures+=("$name")
    fi
}

part lint lint '^$'
part "C" c-test '[0-9]+ passed, [0-9]+ failed'
part "C fixtures" c-fixtures '[0-9]+ passed, [0-9]+ failed'
part "fuzz corpus" fuzz-replay '[0-9]+ inputs replayed, [0-9]+ failed' all
part "libFuzzer" fuzz 'number_of_executed_units: [0-9]+' all
part "valgrind" valgrind '[0-9]+ passed, [0-9]+ failed'
part "C coverage" c-coverage 'lines: [0-9.]+%'
part "Python" python-test '[0-9]+ passed'
part "Swift" swift-test 'with [0-9]+ tests in [0-9]+ suites (passed|failed)'
# After "Swift": it links the fuzz targets against that part's checked build.
part "Swift fuzz corpora" fuzz-replay-swift '[0-9]+ inputs replayed, [0-9]+ failed'
part "top-level client" toplevel-test '[0-9]+ passed, [0-9]+ failed'
part "CLI" cli-test '[0-9]+ passed, [0-9]+ failed'
part "DocC" docs 'Generated documentation archive'
part "TSan" tsan 'with [0-9]+ tests in [0-9]+ suites (passed|failed)'

elapsed=$(($(date +%s) - start))
line=$(IFS=';'; echo "${summary[*]}" | sed 's/;/ · /g')
if [ ${#failures[@]} -eq 0 ]; then
    echo "make test: PASSED in $((elapsed / 60))m$((elapsed % 60))s — $line"
else
    echo "make test: FAILED (${failures[*]}) in $((elapsed / 60))m$((elapsed % 60))s — $line"
    exit 1
fi
