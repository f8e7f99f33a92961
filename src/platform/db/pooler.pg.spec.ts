import type { DataSource } from 'typeorm';
import { postgresDataSource } from '../../../test/support/postgres-source';
import { loadConfig } from '@/platform/config/env';
import { buildDataSourceOptions } from './data-source';
import { queryPrepared } from './pg-pool';
import { connectionSettings, forPooler, PoolerClient, STATEMENT_TIMEOUT_MS } from './pooler';

describe('DATABASE_POOLER (docs/architecture.md, Behind a connection pooler)', () => {
  it('is none by default; transaction or a one-line error otherwise', () => {
    expect(loadConfig({}).databasePooler).toBe('none');
    expect(loadConfig({ DATABASE_POOLER: 'transaction' }).databasePooler).toBe('transaction');
    expect(() => loadConfig({ DATABASE_POOLER: 'session' })).toThrow(
      'DATABASE_POOLER: must be none or transaction (got "session")',
    );
  });

  it('migrates on DATABASE_MIGRATION_URL when given, else on DATABASE_URL', () => {
    const url = 'postgres://u@pooler:6432/v';
    expect(loadConfig({ DATABASE_URL: url }).databaseMigrationUrl).toBe(url);
    const direct = 'postgres://u@db:5432/v';
    expect(
      loadConfig({ DATABASE_URL: url, DATABASE_MIGRATION_URL: direct }).databaseMigrationUrl,
    ).toBe(direct);
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: 'http://x' })).toThrow(
      'DATABASE_MIGRATION_URL: must use postgres: or postgresql: (got "http:")',
    );
  });

  it('sends statement_timeout as a startup parameter only without a pooler', () => {
    expect(connectionSettings('none')).toMatchObject({ statement_timeout: STATEMENT_TIMEOUT_MS });
    const pooled = connectionSettings('transaction');
    expect(pooled).not.toHaveProperty('statement_timeout');
    expect(pooled).toMatchObject({ Client: PoolerClient, query_timeout: expect.any(Number) });
    const options = buildDataSourceOptions({
      databaseUrl: 'postgres://u@h/d',
      databasePoolSize: 3,
      databasePooler: 'transaction',
    });
    expect(options.extra).not.toHaveProperty('statement_timeout');
  });

  it('drops statement names and adds the timeout to transaction starts', () => {
    expect(forPooler({ name: 'n', text: 'SELECT 1', values: [] })).toEqual({
      text: 'SELECT 1',
      values: [],
    });
    expect(forPooler('START TRANSACTION')).toBe(
      `START TRANSACTION; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
    );
    expect(forPooler('begin;')).toBe(
      `begin; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
    );
    expect(forPooler('SELECT 1')).toBe('SELECT 1');
    expect(forPooler('BEGIN; SELECT 1')).toBe('BEGIN; SELECT 1');
  });
});

describe('PoolerClient on PostgreSQL', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = postgresDataSource(1, { DATABASE_POOLER: 'transaction' });
    await db.initialize();
  });
  afterAll(() => db.destroy());

  it('prepares no named statement', async () => {
    await queryPrepared(db, 'SELECT $1::int AS n', [1]);
    const { rows } = await queryPrepared<{ n: number }>(db, 'SELECT $1::int AS n', [2]);
    expect(rows).toEqual([{ n: 2 }]);
    const named = await db.query<{ count: string }[]>(
      'SELECT count(*) AS count FROM pg_prepared_statements',
    );
    expect(named[0].count).toBe('0');
  });

  it('bounds every transaction with statement_timeout, not the session', async () => {
    const inside = await db.transaction((m) =>
      m.query<{ statement_timeout: string }[]>('SHOW statement_timeout'),
    );
    expect(inside[0].statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    const outside = await db.query<{ statement_timeout: string }[]>('SHOW statement_timeout');
    expect(outside[0].statement_timeout).not.toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
  });
});
