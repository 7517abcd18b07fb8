#!/usr/bin/env bash
# Builds the JSON parser candidates of docs/CLI_IO.md into .build-candidates/ and runs each,
# three times, under /usr/bin/time on a 10^6-item snapshot file (made by `diffable generate`
# when not given). Not part of `make test`.
#   Benchmarks/json-candidates/measure.sh [OLD.json NEW.json]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=.build-candidates
mkdir -p "$out"
old=${1:-$out/old.json} new=${2:-$out/new.json}
if [ ! -f "$old" ]; then
    swift build -c release --product diffable >/dev/null
    .build/release/diffable generate "$old" "$new"
fi
here=Benchmarks/json-candidates
g++ -std=c++17 -O2 "$here/simdjson_parse.cpp" -lsimdjson -o "$out/simdjson_parse"
g++ -std=c++17 -O2 -DSIMDJSON_THREADS_ENABLED=1 -ICSources/CSnapshotJSON/include -ICSources/CDiffCore/include \
    "$here/snapshot_json_parse.cpp" CSources/CSnapshotJSON/*.cpp -x c CSources/CDiffCore/dfc_keys.c -lsimdjson \
    -o "$out/snapshot_json_parse"
gcc -O2 "$here/cjson_parse.c" $(pkg-config --cflags --libs libcjson) -o "$out/cjson_parse"
swiftc -O "$here/foundation_parse.swift" -o "$out/foundation_parse" 2>/dev/null
run() { for _ in 1 2 3; do /usr/bin/time -f "    %e s wall, %U s user, %S s sys, %M KB peak" "$@"; done; }
run "$out/simdjson_parse" dom "$old"
run "$out/simdjson_parse" ondemand "$old"
run "$out/snapshot_json_parse" "$old" "$new"
run "$out/cjson_parse" "$old"
run "$out/foundation_parse" serialization "$old"
run "$out/foundation_parse" decoder "$old"
run python3 -c 'import json, sys; [json.load(open(p)) for p in sys.argv[1:]]' "$old" "$new"
