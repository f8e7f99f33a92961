import Redis from 'ioredis';
import { Client } from 'pg';
import type { AppConfig } from '@/platform/config/env';
import { migrateDatabase } from '@/platform/db/data-source';

/**
 * Creates the worker's database when missing, migrates it, and empties every table and queue
 * (on DATABASE_MIGRATION_URL when set: direct to PostgreSQL, past the pooler of `test:pooler`).
 */
export async function resetState(config: AppConfig): Promise<void> {
  await migrateDatabase(config);
  const db = new Client({ connectionString: config.databaseMigrationUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'typeorm_migrations'",
    );
    if (rows.length > 0) {
      await db.query(
        `TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`,
      );
    }
  } finally {
    await db.end();
  }
  await flushRedisPrefix(config);
}

/** Deletes the run's Redis keys; nothing to do where Redis does not answer (the tiers of jest.config.js). */
export async function flushRedisPrefix(config: AppConfig): Promise<void> {
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
  } catch {
    redis.disconnect();
    return;
  }
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${config.redisPrefix}:*`,
        'COUNT',
        1000,
      );
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
