#!/usr/bin/env bash
# Runs a command with a GTK display: the caller's DISPLAY or GDK_BACKEND=broadway when set;
# otherwise a gtk4-broadwayd of its own on the first free display from :5 (stopped on exit).
# Prints "broadway: http://127.0.0.1:PORT/" when it started one (port = 8080 + display).
set -euo pipefail
if [[ -n "${DISPLAY:-}" || "${GDK_BACKEND:-}" == broadway ]]; then exec "$@"; fi
command -v gtk4-broadwayd >/dev/null || { echo "gtk4-broadwayd is missing (make gtk-deps)" >&2; exit 1; }
# A runtime folder of this run's own: no stale socket of an earlier run is in the way.
runtime=$(mktemp -d /tmp/diffable-gtk-XXXXXX)
export XDG_RUNTIME_DIR=$runtime
for display in $(seq 5 60); do
    port=$((8080 + display))
    # A display is free when its port is (the socket lives in this run's own folder).
    (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && continue
    log=$runtime/broadwayd-$display.log
    gtk4-broadwayd --port "$port" --address 127.0.0.1 ":$display" >"$log" 2>&1 &
    broadwayd=$!
    for _ in $(seq 1 50); do
        grep -q "Listening on" "$log" 2>/dev/null && break
        kill -0 "$broadwayd" 2>/dev/null || break
        sleep 0.1
    done
    if grep -q "Listening on" "$log" 2>/dev/null; then
        # Each command may fail (set -e would end the trap with its status): the run's status stands.
        trap 'kill $broadwayd 2>/dev/null || true; wait $broadwayd 2>/dev/null || true; rm -rf "$runtime" || true' EXIT
        echo "broadway: http://127.0.0.1:$port/ (display :$display)"
        export GDK_BACKEND=broadway BROADWAY_DISPLAY=":$display"
        status=0
        "$@" || status=$?
        exit $status
    fi
    kill "$broadwayd" 2>/dev/null || true
    wait "$broadwayd" 2>/dev/null || true
done
rm -rf "$runtime"
echo "no free broadway display found" >&2
exit 1
