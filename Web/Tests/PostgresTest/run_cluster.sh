#!/usr/bin/env bash
# Runs a command (the DiffablePostgres test, the live-database suite, the demo...) against a
# throwaway PostgreSQL cluster: initdb in a temporary folder, the server on 127.0.0.1 only (a
# free port, trust authentication: nothing listens beyond loopback), stopped and deleted on exit
# (Ctrl-C included). The command gets PGHOST, PGPORT, PGUSER, PGDATABASE, and
# DIFFABLE_PG_RESTART: a shell command that restarts the cluster (fault tests).
# PostgreSQL refuses to run as root: as root, the cluster runs as an unprivileged user
# (diffable-pg, created when missing).
#   run_cluster.sh COMMAND [ARGUMENT...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: run_cluster.sh COMMAND [ARGUMENT...]"; exit 2; }
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
    trap - EXIT INT TERM
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U diffable --auth=trust -E UTF8 >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200" start >/dev/null
echo "throwaway cluster: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
export DIFFABLE_PG_RESTART="${as_owner[*]} $bin/pg_ctl -D $dir/data -w -l $dir/server.log -m fast restart"
PGHOST=127.0.0.1 PGPORT=$port PGUSER=diffable PGDATABASE=postgres "$@"
