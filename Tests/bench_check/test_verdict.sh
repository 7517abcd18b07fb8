#!/usr/bin/env bash
# The decision of `make bench-check` (verdict.sh) on saved tool outputs, without running a
# benchmark: every case's expected verdict, including one improvement beside one regression.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
# tally WHAT ACTUAL EXPECTED: counts and prints one case's outcome
tally_() {
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
        echo "ok   $1: $2"
    else
        failed=$((failed + 1))
        echo "FAIL $1: $2, expected $3"
    fi
}
# case LOG STATUS EXPECTED(pass|fail): the log (and LOG's .stderr when there is one) with that tool status
case_() {
    local log=$1 status=$2 expected=$3 errors=/dev/null actual
    [ -f "$here/logs/${log%.log}.stderr" ] && errors=$here/logs/${log%.log}.stderr
    if "$here/verdict.sh" "$status" "$here/logs/$log" "$errors" >/dev/null; then actual=pass; else actual=fail; fi
    tally_ "$log (status $status)" "$actual" "$expected"
}
case_ equal.log 0 pass
case_ improvement.log 1 pass
case_ regression.log 1 fail
case_ improvement-and-regression.log 1 fail
case_ both-tables.log 1 fail
case_ regression.log 0 fail   # a regression fails even if the tool exited 0
case_ no-verdict.log 1 fail
# The recipe of `make bench-check` itself, with the tool replaced by a saved log and run from
# Benchmarks/ as the tool is: a path there relative to the repository once made every real
# check fail (exit 127), whatever the tool said.
root=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
recipe_() {
    local log=$1 status=$2 expected=$3 actual
    if make -s -C "$root" bench-check-verdict BENCH_CHECK_LOG="$scratch/check.log" \
        BENCH="cd Benchmarks && sh -c 'cat \"$here/logs/$log\"; exit $status' tool" >/dev/null 2>&1; then
        actual=pass
    else
        actual=fail
    fi
    tally_ "make bench-check-verdict on $log (status $status)" "$actual" "$expected"
}
recipe_ equal.log 0 pass
recipe_ improvement.log 1 pass
recipe_ regression.log 1 fail
echo "bench-check verdict: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
