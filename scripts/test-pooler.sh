#!/usr/bin/env bash
# npm run test:pooler (docs/architecture.md, Behind a connection pooler): the e2e tests of the search, webhook, audit, batch, claims
# and verification paths, and delayed work without Redis (docs/configuration.md, Database and Redis), with the service behind PgBouncer in transaction pooling mode
# (DATABASE_POOLER=transaction); migrations, resets and CREATE DATABASE go direct to PostgreSQL
# (TEST_DATABASE_DIRECT_URL → DATABASE_MIGRATION_URL, test/support/env.ts).
#
# TEST_POOLER_URL names a running PgBouncer (`postgres://postgres@127.0.0.1:<port>`, as .ci/run
# passes it); without it, one is started for this run (scripts/pgbouncer.sh) and stopped after.
# Arguments go to jest (e.g. --ci, or test paths to run only those).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_POOLER_URL:-}" ]; then
  PGBOUNCER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/vision-pgbouncer.XXXXXX")
  export PGBOUNCER_DIR
  trap 'bash scripts/pgbouncer.sh stop; rm -rf "$PGBOUNCER_DIR"' EXIT
  TEST_POOLER_URL="postgres://postgres@127.0.0.1:$(bash scripts/pgbouncer.sh start)"
fi

files=()
paths=()
for arg in "$@"; do
  case "$arg" in
    test/*) paths+=("$arg") ;;
    *) files+=("$arg") ;;
  esac
done
if [ "${#paths[@]}" -eq 0 ]; then
  paths=(
    test/eligibility.pg.e2e-spec.ts
    test/eligibility-queue.redis.e2e-spec.ts
    test/webhooks.pg.e2e-spec.ts
    test/webhook-events.pg.e2e-spec.ts
    test/webhook-first-attempt.pg.e2e-spec.ts
    test/audit-trail.pg.e2e-spec.ts
    test/batch.pg.e2e-spec.ts
    test/claims.pg.e2e-spec.ts
    test/claims-lifecycle.tools.e2e-spec.ts
    test/verification.pg.e2e-spec.ts
    test/delayed-work.pg.e2e-spec.ts
  )
fi

# Each file in its own tier (jest.config.js): a marked file with what its mark names, the others
# on PostgreSQL alone.
tier_of() {
  case "$1" in
    *.redis.*) echo redis ;;
    *.tools.*) echo tools ;;
    *) echo '' ;;
  esac
}
status=0
for tier in '' redis tools; do
  chosen=()
  for path in "${paths[@]}"; do
    if [ "$(tier_of "$path")" = "$tier" ]; then chosen+=("$path"); fi
  done
  if [ "${#chosen[@]}" -eq 0 ]; then continue; fi
  TEST_TIER="$tier" TEST_DATABASE_BASE_URL="$TEST_POOLER_URL" \
    TEST_DATABASE_DIRECT_URL="${TEST_DATABASE_DIRECT_URL:-postgres://postgres@127.0.0.1:5432}" \
    DATABASE_POOLER=transaction \
    npx jest --config jest.config.js --selectProjects e2e "${files[@]}" --runTestsByPath "${chosen[@]}" ||
    status=1
done
exit "$status"
