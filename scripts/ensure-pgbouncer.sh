#!/usr/bin/env bash
# The pooler tests (npm run test:pooler, docs/architecture.md, Behind a connection pooler) run the service behind Debian's PgBouncer
# (1.18 on bookworm). Install it when missing (as root through apt-get, as on this project's
# machines); otherwise say what to do.
set -euo pipefail
command -v pgbouncer >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the pooler tests: pgbouncer: installing Debian's package"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
  command -v pgbouncer >/dev/null 2>&1 && exit 0
fi
echo "pgbouncer is missing: install it (apt-get install -y pgbouncer)" >&2
exit 1
