#!/usr/bin/env bash
# The diffable CLI end to end: diff (JSON and text), bad input, fixtures verify, demo.
set -uo pipefail
bin=${1:-.build/debug/diffable}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Every call has a time limit, so a hang fails one check instead of stalling CI.
diffable_cli() { timeout "${CLI_TIMEOUT:-300}" "$bin" "$@"; }
passed=0 failed=0
check() { # name, condition
    if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1"; fi
}

fixture=Tests/Fixtures/hand/reload-in-refresh-batch.json
python3 - "$fixture" "$scratch" <<'PY'
import json, sys
fixture = json.load(open(sys.argv[1]))
for side in ("old", "new"):
    json.dump(fixture[side], open(f"{sys.argv[2]}/{side}.json", "w"))
json.dump(fixture["expect"], open(f"{sys.argv[2]}/expect.json", "w"))
PY
diffable_cli diff "$scratch/old.json" "$scratch/new.json" > "$scratch/out.json"; status=$?
check "diff exits 0" '[ $status -eq 0 ]'
check "diff prints the fixture expect object" \
    'python3 -c "import json,sys; sys.exit(json.load(open(\"$scratch/out.json\")) != json.load(open(\"$scratch/expect.json\")))"'
diffable_cli diff "$scratch/old.json" "$scratch/new.json" --format text > "$scratch/out.txt"
check "text format names the refresh batch" 'grep -q "batch 2 (refresh)" "$scratch/out.txt"'

echo '{"sections":[{"id":"S","items":["a","b","a"]}]}' > "$scratch/dup.json"
diffable_cli diff "$scratch/dup.json" "$scratch/new.json" > "$scratch/dup.out"; status=$?
check "bad snapshot answers with an error object and exit 1" '[ $status -eq 1 ] && grep -q "\"kind\":\"duplicateItem\"" "$scratch/dup.out"'

diffable_cli diff "$scratch/missing.json" "$scratch/new.json" 2> "$scratch/err"; status=$?
check "missing file exits 2 with its name" '[ $status -eq 2 ] && grep -q "missing.json" "$scratch/err"'
echo '{"sections": [' > "$scratch/broken.json"
diffable_cli diff "$scratch/broken.json" "$scratch/new.json" 2> "$scratch/err"; status=$?
check "broken JSON exits 2 with a message" '[ $status -eq 2 ] && grep -q "broken.json" "$scratch/err"'
echo '{"sections": [{"id": "S"}]}' > "$scratch/shape.json"
diffable_cli diff "$scratch/shape.json" "$scratch/new.json" 2> "$scratch/err"; status=$?
check "a missing key is named with its path" '[ $status -eq 2 ] && grep -q "items" "$scratch/err" && grep -q "sections\[0\]" "$scratch/err"'

diffable_cli fixtures verify Tests/Fixtures --quiet > "$scratch/fixtures.out"; status=$?
check "fixtures verify passes every fixture" '[ $status -eq 0 ] && grep -Eq "^[0-9]+ passed, 0 failed$" "$scratch/fixtures.out"'
mkdir "$scratch/bad-fixtures"
python3 -c "import json,sys; f=json.load(open(sys.argv[1])); f['expect']['batches'][0]['moveItems']=[]; json.dump(f, open(sys.argv[2], 'w'))" \
    "$fixture" "$scratch/bad-fixtures/x.json"
diffable_cli fixtures verify "$scratch/bad-fixtures" > "$scratch/bad.out"; status=$?
check "fixtures verify fails a wrong expectation" '[ $status -eq 1 ] && grep -q "0 passed, 1 failed" "$scratch/bad.out"'

diffable_cli bench --sizes 1000 --scenarios churn --keys int --runs 1 > "$scratch/bench.out" 2>/dev/null; status=$?
check "bench prints a table row" '[ $status -eq 0 ] && grep -q "| churn | int | 1000 |" "$scratch/bench.out"'
diffable_cli bench --sizes 10 --scenarios nope 2> "$scratch/err"; status=$?
check "bench rejects an unknown scenario" '[ $status -ne 0 ] && grep -q "unknown scenario" "$scratch/err"'

# Issue 15: strict input, honest exit codes, checked arguments.
echo '{"sections":[{"id":"S","items":["a"]}],"reloadItem":["a"]}' > "$scratch/typo.json"
diffable_cli diff "$scratch/typo.json" "$scratch/typo.json" > /dev/null 2> "$scratch/err"; status=$?
check "an unknown key is rejected with a suggestion (exit 2)" \
    '[ $status -eq 2 ] && grep -q "unknown key \"reloadItem\"" "$scratch/err" && grep -q "did you mean \"reloadItems\"" "$scratch/err" && grep -q typo.json "$scratch/err"'
echo '{"sections":[{"id":"S","itemz":["a"]}]}' > "$scratch/typo2.json"
diffable_cli diff "$scratch/typo2.json" "$scratch/typo.json" 2> "$scratch/err" > /dev/null; status=$?
check "an unknown key inside a section is named with its path" '[ $status -eq 2 ] && grep -q "sections\[0\]" "$scratch/err"'
diffable_cli diff --lenient "$scratch/typo.json" "$scratch/typo.json" > "$scratch/out"; status=$?
check "--lenient ignores unknown keys" '[ $status -eq 0 ] && grep -q "\"batches\":\[\]" "$scratch/out"'
diffable_cli --version > "$scratch/out"; status=$?
check "--version prints the package and core versions" '[ $status -eq 0 ] && grep -Eq "^diffable [0-9]+\.[0-9]+\.[0-9]+ \(C core [0-9]+\.[0-9]+\.[0-9]+\)$" "$scratch/out"'
diffable_cli --help > "$scratch/out"; status=$?
check "--help documents the exit statuses" '[ $status -eq 0 ] && grep -q "internal error" "$scratch/out"'
for args in "--runs 0" "--sizes ," "--sizes 10000000000" "--sizes 2000000000"; do
    diffable_cli bench $args > /dev/null 2> "$scratch/err"; status=$?
    check "bench $args is refused in one line with exit 2" '[ $status -eq 2 ] && [ $(wc -l < "$scratch/err") -eq 1 ]'
done
diffable_cli bench --sizes 2000000000 2> "$scratch/err"; status=$?
check "a size that will not fit in memory is refused with the estimate" 'grep -q "MB" "$scratch/err"'
diffable_cli frobnicate 2> "$scratch/err"; status=$?
check "an unknown subcommand exits 2" '[ $status -eq 2 ]'
diffable_cli demo > "$scratch/demo.out"; status=$?
check "the demo never says \"1 items\"" '[ $status -eq 0 ] && ! grep -q "\b1 items\b" "$scratch/demo.out" && ! grep -q "\b1 sections\b" "$scratch/demo.out"'

echo "CLI: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
