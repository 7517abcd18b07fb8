#!/usr/bin/env bash
# `make test`, `make test-long` and `make test-all`: every part of the chosen tier in order,
# each part's output as it runs, then one line that says what ran and what passed, with the
# time taken. Exits non-zero if any part failed
# (every part still runs, so one failure does not hide another). Each part's wall time is
# printed after it and, for all of them, on a line before the summary.
#
# Every part must print the count of what it ran: a part whose count is missing, or whose
# count is 0 (for example a `swift test --filter` that matched "with 0 tests"), fails even
# when its command succeeded. A part that could not run on this machine prints a line
# "<something>: skipped (<why>)" and shows as "skipped", never as passed.
#
# TEST_TIER picks the parts: `core` (make test: the parts a change must pass, about 16 minutes
# on 2 cores from a clean clone), `long` (make test-long: the parts that need a long build of
# their own or an instrumented run: the web package's consumers, TSan, valgrind, the C tests
# built by clang, libFuzzer) or
# `all` (both, in this order; CI runs both tiers). TEST_PARTS="c-test c-fixtures …" runs only
# the parts with those make targets, whatever their tier (in this order).
set -uo pipefail
MAKE=${MAKE:-make}
start=$(date +%s)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
summary=() failures=() times=()
selected=" ${TEST_PARTS:-} "
tier_wanted=${TEST_TIER:-core}
case "$tier_wanted" in
    core) title="make test" ;;
    long) title="make test-long" ;;
    all) title="make test-all" ;;
    *) echo "run_all: TEST_TIER must be core, long or all, not \"$tier_wanted\"" >&2; exit 2 ;;
esac
# A pick of parts is titled by what it ran, whatever tier they belong to.
[ -n "${TEST_PARTS:-}" ] && title="run_all (TEST_PARTS:${TEST_PARTS})"
tier=core

# in_tier TIER: the parts after it belong to TIER (core or long).
in_tier() { tier=$1; }

# part NAME TARGET PATTERN [all]: runs `make TARGET`, then takes the last line matching PATTERN
# as the count (with `all`: every matching line, joined with " + ", one per target or corpus).
part() {
    local name=$1 target=$2 pattern=$3 which=${4:-last}
    if [ -n "${TEST_PARTS:-}" ]; then
        [[ "$selected" == *" $target "* ]] || return 0
    elif [ "$tier_wanted" != all ] && [ "$tier_wanted" != "$tier" ]; then
        return 0
    fi
    echo "==> $name (make $target)"
    local part_start=$SECONDS
    # A part that hangs is stopped (and fails) instead of eating the whole CI budget.
    timeout "${PART_TIMEOUT:-1800}" $MAKE --no-print-directory "$target" 2>&1 | tee "$logs/$target.log"
    local status=${PIPESTATUS[0]}
    # Each part's wall time, set-up and builds included: what to look at when make test grows.
    local took="$((SECONDS - part_start))s"
    echo "==> $name took $took"
    times+=("$name $took")
    local count skipped
    if [ "$which" = all ]; then
        count=$(grep -Eo "$pattern" "$logs/$target.log" | paste -sd '|' | sed 's/|/ + /g')
    else
        count=$(grep -Eo "$pattern" "$logs/$target.log" | tail -1)
    fi
    count=${count#"$name: "} # "C fixtures: 198 passed" shows as "C fixtures 198 passed"
    skipped=$(grep -Eo ': skipped \(.*\)$' "$logs/$target.log" | tail -1 | sed 's/^: //')
    if [ "$status" -ne 0 ]; then
        summary+=("$name FAILED")
        failures+=("$name")
    elif [ -n "$skipped" ] && [ -z "$count" ]; then
        summary+=("$name $skipped")
    elif [ -z "$count" ]; then
        echo "run_all: $name printed no count (pattern: $pattern): nothing shows that it ran" >&2
        summary+=("$name FAILED (no count)")
        failures+=("$name")
    elif ! counts_nonzero "$count"; then
        echo "run_all: $name ran nothing: $count" >&2
        summary+=("$name FAILED (ran 0: $count)")
        failures+=("$name")
    else
        summary+=("$name $count${skipped:+ ($skipped)}")
    fi
}

# counts_nonzero "A + B + …": true when the first number of every " + "-separated count is above 0.
counts_nonzero() {
    local piece first
    while IFS= read -r piece; do
        first=$(grep -Eo '[0-9]+(\.[0-9]+)?' <<<"$piece" | head -1)
        [ -n "$first" ] || return 1
        awk -v n="$first" 'BEGIN { exit !(n > 0) }' || return 1
    done < <(sed 's/ + /\n/g' <<<"$1")
}

in_tier core
part lint lint 'lint: [0-9]+ files'
part "C tests" c-test 'C tests: [0-9]+ passed, [0-9]+ failed'
part "C install" c-install-test 'C install: [0-9]+ passed, [0-9]+ failed'
part "C fixtures" c-fixtures 'C fixtures: [0-9]+ passed, [0-9]+ failed'
part "fuzz corpus" fuzz-replay '[a-z_-]+: [0-9]+ inputs replayed, [0-9]+ failed' all
part "C coverage" c-coverage 'lines: [0-9.]+%'
part "bench-check verdict" bench-check-test 'bench-check verdict: [0-9]+ passed, [0-9]+ failed'
part "Python" python-test '[0-9]+ passed'
part "Python package" python-package-test '[0-9]+ passed'
part "Swift" swift-test 'with [0-9]+ tests in [0-9]+ suites (passed|failed)'
# After "Swift": it links the fuzz targets against that part's checked build.
part "Swift fuzz corpora" fuzz-replay-swift '[a-z_-]+: [0-9]+ inputs replayed, [0-9]+ failed' all
part "top-level client" toplevel-test 'top-level client: [0-9]+ passed, [0-9]+ failed'
part "CLI" cli-test '[0-9]+ passed, [0-9]+ failed'
part "DocC" docs 'DocC: [0-9]+ pages'
part "GTK" gtk-test 'GTK: [0-9]+ passed, [0-9]+ failed'

in_tier long
part "C tests, clang" c-test-clang '[0-9]+ passed, [0-9]+ failed'
part "libFuzzer" fuzz '[a-z]+: [0-9]+ executions' all
part "valgrind" valgrind 'C (tests|fixtures): [0-9]+ passed, [0-9]+ failed' all
part "Browser" web-test '[0-9]+ passed'
part "PostgreSQL" web-postgres-test 'PostgreSQL: [0-9]+ passed, [0-9]+ failed'
part "Live database" web-db-test 'Live database: [0-9]+ passed, [0-9]+ failed'
part "TSan" tsan 'with [0-9]+ tests in [0-9]+ suites (passed|failed)'

elapsed=$(($(date +%s) - start))
if [ ${#summary[@]} -eq 0 ]; then
    echo "$title: FAILED: no part matched TEST_PARTS=\"${TEST_PARTS:-}\""
    exit 1
fi
line=$(IFS=';'; echo "${summary[*]}" | sed 's/;/ · /g')
echo "$title: wall time by part: $(IFS=';'; echo "${times[*]}" | sed 's/;/ · /g')"
if [ ${#failures[@]} -eq 0 ]; then
    echo "$title: PASSED in $((elapsed / 60))m$((elapsed % 60))s — $line"
else
    echo "$title: FAILED (${failures[*]}) in $((elapsed / 60))m$((elapsed % 60))s — $line"
    exit 1
fi
