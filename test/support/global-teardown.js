// Drops this run's databases and Redis keys.
const { Client } = require('pg');
const Redis = require('ioredis');
const { adminUrl } = require('./global-setup');
const { tierOf } = require('./tiers');

module.exports = async function globalTeardown() {
  try {
    await dropRunState();
  } finally {
    // The embedded PostgreSQL global-setup.js started for this run (none otherwise).
    await globalThis.__visionEmbeddedPostgres?.stop();
  }
};

async function dropRunState() {
  const run = process.env.VISION_TEST_RUN;
  // The unmarked tier made no database (global-setup.js).
  if (!run || tierOf() === 'unmarked') return;
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
  // Only the redis tier's service reached Redis (test/support/env.ts).
  if (process.env.TEST_TIER !== 'redis') return;
  const redis = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', {
    lazyConnect: true,
  });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `vision_test_${run}_*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch {
    // Redis gone: nothing to clean.
  } finally {
    redis.disconnect();
  }
}
