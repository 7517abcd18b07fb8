#!/usr/bin/env bash
# `make fuzz-deep`: every libFuzzer target for SECONDS, at most two at once (the machine
# has two cores), each from its committed corpus into a working corpus under OUT. Prints,
# per target: executions, coverage and corpus (cov/ft/corp, libFuzzer's last status line),
# the new inputs kept under OUT/<target> (`make fuzz-merge` folds them into the committed
# corpus) and any crash (the input is kept as OUT/<target>-crash-*). Exits non-zero on a crash.
#
#   run_deep.sh SECONDS OUT NAME:BINARY:COMMITTED_CORPUS:MAX_LEN ...
set -uo pipefail
seconds=$1 out=$2
shift 2
mkdir -p "$out"
export SWIFT_BACKTRACE=enable=no

run_one() {
    local name binary corpus max_len
    IFS=: read -r name binary corpus max_len <<<"$1"
    mkdir -p "$out/$name"
    "$binary" -max_total_time="$seconds" -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$out/$name-" \
        "$out/$name" "$corpus" >"$out/$name.log" 2>&1
    echo $? >"$out/$name.status"
}
export -f run_one
export seconds out
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'run_one "$@"' _ {}

failed=0
for spec in "$@"; do
    IFS=: read -r name _ _ _ <<<"$spec"
    log=$out/$name.log
    executions=$(grep -Eo 'number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$')
    coverage=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1)
    files=$(find "$out/$name" -type f | wc -l)
    bytes=$(du -sb "$out/$name" | cut -f1)
    crashes=$(find "$out" -maxdepth 1 -name "$name-*" -type f | tr '\n' ' ')
    echo "fuzz-deep $name: ${executions:-0} executions in ${seconds} s, ${coverage:-no coverage line}," \
        "$files new inputs ($bytes bytes) in $out/$name, crashes: ${crashes:-none}"
    if [ "$(cat "$out/$name.status")" != 0 ]; then
        failed=1
        grep -E 'ERROR|SUMMARY|fuzz oracle failed' "$log" | head -5
    fi
done
exit $failed
