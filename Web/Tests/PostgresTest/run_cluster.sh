#!/usr/bin/env bash
# Runs the DiffablePostgres test ($1, the built diffable-postgres-test) against a throwaway
# PostgreSQL cluster: initdb in a temporary folder, the server on 127.0.0.1 only (a free port,
# trust authentication: nothing listens beyond loopback), stopped and deleted on exit.
# PostgreSQL refuses to run as root: as root, the cluster runs as an unprivileged user
# (diffable-pg, created when missing).
set -euo pipefail
test_program=$(realpath "$1")
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)"; exit 1; }
as_owner=()
if [ "$(id -u)" = 0 ]; then
    id diffable-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin diffable-pg
    as_owner=(runuser -u diffable-pg --)
fi
dir=$(mktemp -d /tmp/diffable-pg.XXXXXX)
chmod 755 "$dir"
[ ${#as_owner[@]} -eq 0 ] || chown diffable-pg "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U diffable --auth=trust -E UTF8 >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir" start >/dev/null
echo "throwaway cluster: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
PGHOST=127.0.0.1 PGPORT=$port PGUSER=diffable PGDATABASE=postgres "$test_program"
