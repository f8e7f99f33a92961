#!/usr/bin/env bash
# A throwaway PgBouncer in transaction pooling mode in front of the local PostgreSQL, for the
# pooler test run (npm run test:pooler, docs/architecture.md, Behind a connection pooler): stock settings plus
# `ignore_startup_parameters = extra_float_digits`, as a production PgBouncer would have them.
#
#   PGBOUNCER_DIR=$(mktemp -d) scripts/pgbouncer.sh start   # prints the port it listens on
#   PGBOUNCER_DIR=...          scripts/pgbouncer.sh stop
#
# PGBOUNCER_DIR (default: a new temporary folder, printed on stderr) holds the ini, the auth file,
# the log and the pid file. PGBOUNCER_PORT (default: a spare loopback port), PGBOUNCER_SERVER
# (default `host=127.0.0.1 port=5432`) and PGBOUNCER_USERS (default `postgres`: the roles clients
# may log in as, trusted, i.e. no password) change the rest. PgBouncer refuses to run as root:
# as root it runs as PGBOUNCER_RUN_AS (default `postgres`).
set -euo pipefail
command="${1:-}"
dir="${PGBOUNCER_DIR:-}"

stop() {
  [ -n "$dir" ] || { echo "PGBOUNCER_DIR: which PgBouncer to stop" >&2; exit 2; }
  [ -f "$dir/pgbouncer.pid" ] || exit 0
  pid=$(cat "$dir/pgbouncer.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$dir/pgbouncer.pid"
}

start() {
  command -v pgbouncer >/dev/null 2>&1 || {
    echo "pgbouncer is missing: install it (apt-get install -y pgbouncer)" >&2
    exit 1
  }
  if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/vision-pgbouncer.XXXXXX")
    echo "PGBOUNCER_DIR=$dir" >&2
  fi
  mkdir -p "$dir"
  port="${PGBOUNCER_PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}"
  : >"$dir/users.txt"
  for user in ${PGBOUNCER_USERS:-postgres}; do echo "\"$user\" \"\"" >>"$dir/users.txt"; done
  cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = ${PGBOUNCER_SERVER:-host=127.0.0.1 port=5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
admin_users = ${PGBOUNCER_USERS:-postgres}
pool_mode = transaction
ignore_startup_parameters = extra_float_digits
max_client_conn = 2000
default_pool_size = 20
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
  local as=()
  if [ "$(id -u)" = "0" ]; then
    chown -R "${PGBOUNCER_RUN_AS:-postgres}" "$dir"
    as=(-u "${PGBOUNCER_RUN_AS:-postgres}")
  fi
  pgbouncer -d "${as[@]}" "$dir/pgbouncer.ini"
  for _ in $(seq 1 50); do
    pg_isready -h 127.0.0.1 -p "$port" -q 2>/dev/null && { echo "$port"; return; }
    sleep 0.1
  done
  echo "PgBouncer did not start; its log:" >&2
  cat "$dir/pgbouncer.log" >&2 || true
  exit 1
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: PGBOUNCER_DIR=<dir> $0 start|stop" >&2; exit 2 ;;
esac
