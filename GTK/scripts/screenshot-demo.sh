#!/usr/bin/env bash
# Refreshes docs/gtk-demo.png: the demo on a gtk4-broadwayd of its own, photographed by
# headless chromium through the broadway web client. Usage: scripts/screenshot-demo.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-../docs/gtk-demo.png}
swift build -c release --product diffable-gtk-demo
runtime=$(mktemp -d /tmp/diffable-gtk-XXXXXX)
export XDG_RUNTIME_DIR=$runtime
port=8199 display=:119
gtk4-broadwayd --port $port --address 127.0.0.1 $display >"$runtime/broadwayd.log" 2>&1 &
broadwayd=$!
GDK_BACKEND=broadway BROADWAY_DISPLAY=$display .build/release/diffable-gtk-demo --seconds 30 >"$runtime/demo.log" 2>&1 &
demo=$!
trap 'kill $demo $broadwayd 2>/dev/null; wait $demo $broadwayd 2>/dev/null; rm -rf "$runtime"' EXIT
sleep 4  # three samples: CPU % needs two
timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=760,700 \
    --virtual-time-budget=8000 --screenshot="$out" "http://127.0.0.1:$port/" 2>/dev/null
echo "screenshot: $out"
