#!/usr/bin/env bash
# npm run test:pooler (docs/architecture.md, Behind a connection pooler): the e2e tests of the search, webhook, audit, batch, claims
# and verification paths with the service behind PgBouncer in transaction pooling mode
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
    test/eligibility.e2e-spec.ts
    test/eligibility-queue.e2e-spec.ts
    test/webhooks.e2e-spec.ts
    test/webhook-events.e2e-spec.ts
    test/webhook-first-attempt.e2e-spec.ts
    test/audit-trail.e2e-spec.ts
    test/batch.e2e-spec.ts
    test/claims.e2e-spec.ts
    test/claims-lifecycle.e2e-spec.ts
    test/verification.e2e-spec.ts
  )
fi

TEST_DATABASE_BASE_URL="$TEST_POOLER_URL" \
  TEST_DATABASE_DIRECT_URL="${TEST_DATABASE_DIRECT_URL:-postgres://postgres@127.0.0.1:5432}" \
  DATABASE_POOLER=transaction \
  npx jest --config jest.config.js --selectProjects e2e "${files[@]}" --runTestsByPath "${paths[@]}"
