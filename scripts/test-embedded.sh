#!/usr/bin/env bash
# The fresh-machine path (README.md, Quick start) on a machine that has a PostgreSQL of its own:
# tests of npm test's tier (jest.config.js: the service without Redis) with DATABASE_URL=embedded,
# so their databases live in the embedded PostgreSQL (npm binaries, var/postgres; test/support/
# global-setup.js starts it and global-teardown.js stops it). .ci/run runs all of npm test so,
# where nothing listens; this is the selection to run by hand:
#   1. a selection of the fast tier that works the database: the config and database layers, the
#      module medium test, and the service specs of the search path;
#   2. the e2e search specs (a search, Universal Search, a webhook's first attempt);
#   3. test/embedded/fresh-machine.pg.e2e-spec.ts: the built service started as `npm start`
#      starts it, in a fresh folder, on the embedded PostgreSQL without Redis; the CLI likewise; a
#      DATABASE_URL that nothing answers.
# A few minutes on two cores. With --clone, first a clean clone of HEAD, `npm install` in it and
# `git status --porcelain` (the lockfile must install without rewriting itself), and step 3 runs
# in that clone (FRESH_CHECKOUT): a few minutes more. Other arguments go to every jest run.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

clone=false
args=()
for arg in "$@"; do
  case "$arg" in
    --clone) clone=true ;;
    *) args+=("$arg") ;;
  esac
done

if $clone; then
  checkout=$(mktemp -d "${TMPDIR:-/tmp}/vision-clone.XXXXXX")
  trap 'rm -rf "$checkout"' EXIT
  # As root the embedded server runs as the user postgres, who must reach the clone's var/postgres.
  chmod 755 "$checkout"
  git clone --quiet . "$checkout"
  (cd "$checkout" && npm install --no-audit --no-fund --loglevel=error)
  changed=$(cd "$checkout" && git status --porcelain)
  if [ -n "$changed" ]; then
    echo "npm install changed the clean clone:" >&2
    echo "$changed" >&2
    (cd "$checkout" && git diff --stat) >&2
    exit 1
  fi
  echo "npm install on a clean clone left git status clean"
  export FRESH_CHECKOUT="$checkout"
fi

export DATABASE_URL=embedded
npx jest --config jest.config.js --selectProjects unit "${args[@]}" --runTestsByPath \
  src/platform/config/*.spec.ts \
  src/platform/db/*.spec.ts \
  test/modules/*.pg.medium.spec.ts \
  test/service/search-runner.pg.spec.ts \
  test/service/queue-repositories.pg.spec.ts
npx jest --config jest.config.js --selectProjects e2e "${args[@]}" --runTestsByPath \
  test/eligibility.pg.e2e-spec.ts \
  test/universal-search.pg.e2e-spec.ts \
  test/webhook-first-attempt.pg.e2e-spec.ts \
  test/embedded/fresh-machine.pg.e2e-spec.ts

echo "Embedded PostgreSQL tests finished in $(( $(date +%s) - started )) s"
