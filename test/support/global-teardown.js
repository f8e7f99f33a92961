// Drops this run's databases.
const { Client } = require('pg');
const { adminUrl } = require('./global-setup');

module.exports = async function globalTeardown() {
  const run = process.env.VISION_TEST_RUN;
  if (!run) return;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `vision_test_${run}_%`,
    ]);
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
};
