// Drops the previous run's per-worker test databases so every run starts from fresh migrations.
// Plain JS: runs before any TypeScript transform is set up.
const { Client } = require('pg');

module.exports = async function globalSetup() {
  const admin = new Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  try {
    const { rows } = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'vision_test_w%'");
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
};
