// Stops a tier that lacks what it needs (test/support/tiers.js) with one sentence, gives this test
// run an id of its own, so its per-worker databases and Redis prefixes never collide with another
// run on the same machine, and drops databases left by earlier runs that nobody is connected to
// any more. Plain JS: runs before any TypeScript transform is set up.
const { existsSync } = require('node:fs');
const { connect } = require('node:net');
const { join } = require('node:path');
const { Client } = require('pg');
const { missingFor, tierOf } = require('./tiers');

module.exports = async function globalSetup(_globalConfig, projectConfig) {
  const tier = tierOf();
  const missing = await missingFor(tier);
  if (missing) {
    process.stderr.write(`\n${missing}\n`);
    process.exit(1);
  }
  process.env.VISION_TEST_RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  // The unmarked tier needs nothing outside the process (tier-environment.js refuses a socket in
  // its specs): no database to prepare, no port to probe; REDIS_URL only has to parse.
  if (tier === 'unmarked') {
    process.env.VISION_TEST_NO_REDIS_PORT = '1';
    return;
  }
  // npm test's tier runs the service on PostgreSQL alone, as on a machine without Redis, even
  // where Redis runs: test/support/env.ts points REDIS_URL at this port, where nothing listens.
  if (tier !== 'redis') process.env.VISION_TEST_NO_REDIS_PORT = String(await closedPort());
  await useEmbeddedPostgres(join(projectConfig.rootDir, 'var', 'postgres'));
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `SELECT datname FROM pg_database d
       WHERE datname LIKE 'vision_test_%'
         AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    );
    // Only runs that began over two hours ago: a run in progress may have no connection open for
    // a moment (between two apps of one test file), and dropping its database would break it.
    const cutoff = Date.now() - 2 * 3600 * 1000;
    for (const { datname } of rows) {
      if (startedAt(datname) > cutoff) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
};

/** When the run that owns `vision_test_<run>_w<N>` began (its id starts with Date.now() in base 36). */
function startedAt(datname) {
  const run = /^vision_test_([0-9a-z]+)_/.exec(datname)?.[1] ?? '';
  // The id is Date.now() (8 base-36 digits until the year 2059) followed by the pid.
  const time = parseInt(run.slice(0, 8), 36);
  return Number.isFinite(time) ? time : 0;
}

/**
 * README.md, Quick start: with DATABASE_URL=embedded, or with neither DATABASE_URL nor a test
 * server named (TEST_DATABASE_BASE_URL, TEST_ADMIN_DATABASE_URL) while nothing answers on
 * 127.0.0.1:5432, the run's databases live in the embedded PostgreSQL under var/postgres: a
 * running one (`npm start`'s), or one started for this run and stopped by global-teardown.js
 * (or, should Jest die, by its keeper). Any other setting leaves everything as it was: the
 * machine's PostgreSQL, and nothing asked of the embedded server's code.
 */
async function useEmbeddedPostgres(dir) {
  const url = process.env.DATABASE_URL?.trim() ?? '';
  const named = url || process.env.TEST_DATABASE_BASE_URL || process.env.TEST_ADMIN_DATABASE_URL;
  const choice = url === 'embedded' ? 'asked' : named ? 'no' : 'fallback';
  if (choice === 'no') return;
  // The usual case, decided here in plain JavaScript: a PostgreSQL of the machine answers on
  // 5432, and no embedded server of this checkout runs (one may run on 5432: asked below). Not as
  // root, whose embedded server may keep its files elsewhere (src/platform/db/embedded/place.ts).
  if (
    choice === 'fallback' &&
    process.getuid?.() !== 0 &&
    !existsSync(join(dir, 'data', 'postmaster.pid')) &&
    (await answers(5432))
  ) {
    return;
  }
  // TypeScript, compiled by the project's Jest transform, which is in force while this runs.
  const { embeddedWanted, startEmbedded } = require('../../src/platform/db/embedded');
  if (!(await embeddedWanted(choice, dir))) return;
  const server = await startEmbedded(dir);
  globalThis.__visionEmbeddedPostgres = server;
  const base = server.url('postgres').replace(/\/postgres$/, '');
  process.env.TEST_DATABASE_BASE_URL = base;
  process.env.TEST_ADMIN_DATABASE_URL = `${base}/postgres`;
  const how = server.owned ? 'started for this run' : 'already running';
  process.stdout.write(
    `\nTests on the embedded PostgreSQL ${server.version} on 127.0.0.1:${server.port} (${how}).\n`,
  );
}

/**
 * A loopback port below 1024 that refuses connections: no test binds one (freePort() and port 0
 * give ports of the ephemeral range), so nothing comes to listen there during the run.
 */
async function closedPort() {
  for (let port = 1; port < 1024; port++) if (!(await answers(port))) return port;
  throw new Error('every loopback port below 1024 answers');
}

/** True when something accepts connections on 127.0.0.1:`port`. */
function answers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function adminUrl() {
  return process.env.TEST_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}
module.exports.adminUrl = adminUrl;
