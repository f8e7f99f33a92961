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
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
};

function adminUrl() {
  return process.env.TEST_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}
module.exports.adminUrl = adminUrl;
