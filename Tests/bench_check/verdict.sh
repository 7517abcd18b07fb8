#!/usr/bin/env bash
# The verdict of `make bench-check` from what package-benchmark's `thresholds check` printed:
#   verdict.sh STATUS LOG [STDERR_LOG]
# STATUS is the tool's exit status, LOG its stdout, STDERR_LOG its stderr. Passes (exit 0)
# when the tool passed, or when it failed only because counts went down (then asks for
# `make bench-thresholds`). Fails (exit 1) on any sign of a regression — a "WORSE" verdict,
# a "Deviations worse than threshold" table, the plugin's benchmarkThresholdRegression —
# even when an improvement is reported beside it, and when the tool failed without a verdict.
set -uo pipefail
status=$1 log=$2 errors=${3:-/dev/null}
all=$(cat "$log" "$errors" 2>/dev/null)
worse='is WORSE than the defined|Deviations worse than threshold|benchmarkThresholdRegression'
better='is BETTER than the defined|Deviations better than threshold|benchmarkThresholdImprovement'
if grep -Eaq "$worse" <<<"$all"; then
    echo "bench-check: FAILED: a benchmark above allocates more, retains more or holds more memory than Benchmarks/Thresholds/ allows;"
    echo "bench-check: if that is intended, run make bench-thresholds and commit the new files"
    exit 1
fi
if [ "$status" = 0 ]; then
    echo "bench-check: passed"
    exit 0
fi
if grep -Eaq "$better" <<<"$all"; then
    echo "bench-check: passed; counts went DOWN (above): record them with make bench-thresholds and commit Benchmarks/Thresholds"
    exit 0
fi
echo "bench-check: FAILED: the benchmarks did not run to a verdict (see above)"
exit 1
