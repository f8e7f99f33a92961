// Gives this test run an id of its own, so its per-worker databases and Redis prefixes never
// collide with another run on the same machine, and drops databases left by earlier runs that
// nobody is connected to any more. Plain JS: runs before any TypeScript transform is set up.
const { Client } = require('pg');

module.exports = async function globalSetup() {
  process.env.VISION_TEST_RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;
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

function adminUrl() {
  return process.env.TEST_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}
module.exports.adminUrl = adminUrl;
