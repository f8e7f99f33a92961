// Per-worker settings for e2e tests: each Jest worker gets its own database and Redis prefix,
// so test files in parallel never see each other's rows or jobs, and development data is untouched.
const worker = process.env.JEST_WORKER_ID ?? '1';
// Set by global-setup.js: one id per `jest` run, so parallel runs never share state.
const run = process.env.VISION_TEST_RUN ?? 'solo';
const base = process.env.TEST_DATABASE_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = `${base}/vision_test_${run}_w${worker}`;
// The pooler run (npm run test:pooler): DATABASE_URL goes through PgBouncer, migrations, resets
// and CREATE DATABASE go direct to PostgreSQL.
if (process.env.TEST_DATABASE_DIRECT_URL) {
  process.env.DATABASE_MIGRATION_URL = `${process.env.TEST_DATABASE_DIRECT_URL}/vision_test_${run}_w${worker}`;
}
// Outside the redis tier (jest.config.js) the service runs on PostgreSQL alone, as on a machine
// without Redis: REDIS_URL names a loopback port where nothing listens (global-setup.js).
process.env.REDIS_URL =
  process.env.TEST_TIER === 'redis'
    ? (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
    : `redis://127.0.0.1:${process.env.VISION_TEST_NO_REDIS_PORT}`;
process.env.REDIS_PREFIX = `vision_test_${run}_w${worker}`;
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.DEMO_SEED = 'false';
// Throwaway passwords by the hundred: a cheap scrypt (production refuses below OWASP's 2^17).
process.env.PASSWORD_HASH_COST = process.env.PASSWORD_HASH_COST ?? '12';
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.RATE_LIMIT_PER_MINUTE = '1000000';
process.env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE = '1000000';
process.env.PUBLIC_URL = 'http://localhost:3999';
process.env.MAIL_DIR = `/tmp/vision-test-mail-${run}-w${worker}`;
delete process.env.SMTP_URL;
