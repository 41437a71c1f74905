#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL server: a new cluster (initdb) in a temporary
# folder, listening on a free loopback port only, with its URL exported as
# SCANEXTRACT_TEST_POSTGRES_URL; stopped and removed when the command ends, whatever its end.
# As root, the server runs as the `postgres` user (initdb and postgres refuse root).
# With SCANEXTRACT_TEST_POSTGRES_URL already set, the command runs against that server instead.
#   scripts/with-postgres.sh swift test --skip-build
set -euo pipefail
if [[ -n ${SCANEXTRACT_TEST_POSTGRES_URL:-} ]]; then exec "$@"; fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z $bindir || ! -x $bindir/initdb ]]; then
  echo "with-postgres: no PostgreSQL server found; 'make deps' installs Debian's postgresql" >&2
  exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/scanextract-pg.XXXXXX")
run_as=()
user=$(id -un)
if [[ $(id -u) == 0 ]]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "with-postgres: running as root, and there is no 'postgres' user to run the server as" >&2
    exit 1
  fi
  user=postgres
  chown postgres: "$dir"
  run_as=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
  (cd "$dir" && "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1) || true
  rm -rf "$dir"
}
trap cleanup EXIT
# cd: the server's user may not be allowed into the caller's folder.
(
  cd "$dir"
  "${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U "$user" -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  # No durability needed for a test server: fsync off. Many connections: each server process pools.
  "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=300" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
)
export SCANEXTRACT_TEST_POSTGRES_URL="postgres://$user@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') at $SCANEXTRACT_TEST_POSTGRES_URL" >&2
status=0
"$@" || status=$?
exit $status
