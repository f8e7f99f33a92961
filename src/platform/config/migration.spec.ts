import { ConfigError, loadConfig } from './env';
import { loadMigrationConfig } from './migration';

describe('the migration CLI settings (ormconfig.ts)', () => {
  const direct = 'postgres://owner:pw@postgres:5432/vision';
  const pooled = 'postgres://app:pw@pgbouncer:6432/vision';

  it('need no application secret in production: the migration Job gets the migration URL alone', () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_POOLER: 'transaction',
      DATABASE_MIGRATION_URL: direct,
    };
    expect(() => loadConfig(env, false)).toThrow(ConfigError);
    expect(loadMigrationConfig(env)).toEqual({
      databaseUrl: direct,
      databasePoolSize: 20,
      databasePooler: 'none',
    });
  });

  it('migrate on DATABASE_URL, through its pooler, when no DATABASE_MIGRATION_URL is given', () => {
    expect(
      loadMigrationConfig({ DATABASE_URL: pooled, DATABASE_POOLER: 'transaction' }),
    ).toMatchObject({ databaseUrl: pooled, databasePooler: 'transaction' });
    expect(
      loadMigrationConfig({
        DATABASE_URL: pooled,
        DATABASE_POOLER: 'transaction',
        DATABASE_MIGRATION_URL: direct,
      }),
    ).toMatchObject({ databaseUrl: direct, databasePooler: 'none' });
  });

  it('refuse a bad value with one line per variable', () => {
    let problems: string[] = [];
    try {
      loadMigrationConfig({ DATABASE_MIGRATION_URL: 'http://x', DATABASE_POOL_SIZE: '0' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      'DATABASE_POOL_SIZE: must be an integer from 1 to 500 (got "0")',
      'DATABASE_MIGRATION_URL: must use postgres: or postgresql: (got "http:")',
    ]);
  });
});
