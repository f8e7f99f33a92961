import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedDatabaseChoice } from './database';
import { DEFAULT_DATABASE_URL, loadConfig } from './env';
import { environment } from './env-file';

const PRODUCTION = {
  NODE_ENV: 'production',
  APP_ENCRYPTION_KEY: 'a'.repeat(64),
  SESSION_SECRET: 's'.repeat(32),
  PUBLIC_URL: 'https://vision.example',
};

describe('the embedded PostgreSQL choice (README.md, Quick start)', () => {
  it('is asked for by DATABASE_URL=embedded outside production, and stands for the default URL until the server runs', () => {
    for (const env of [
      { DATABASE_URL: 'embedded' },
      { NODE_ENV: 'test', DATABASE_URL: ' embedded ' },
    ]) {
      const config = loadConfig(env);
      expect(config.embeddedDatabase).toBe('asked');
      expect(config.databaseUrl).toBe(DEFAULT_DATABASE_URL);
      expect(config.databaseMigrationUrl).toBe(DEFAULT_DATABASE_URL);
    }
  });

  it('is the fallback when DATABASE_URL is unset or blank outside production, never in production', () => {
    expect(embeddedDatabaseChoice({}, false)).toBe('fallback');
    expect(embeddedDatabaseChoice({ DATABASE_URL: '  ' }, false)).toBe('fallback');
    expect(loadConfig({ NODE_ENV: 'test' }).embeddedDatabase).toBe('fallback');
    expect(loadConfig(PRODUCTION).embeddedDatabase).toBe('no');
    expect(loadConfig(PRODUCTION).databaseUrl).toBe(DEFAULT_DATABASE_URL);
  });

  it('is never taken when DATABASE_URL names a server, reachable or not', () => {
    for (const url of [DEFAULT_DATABASE_URL, 'postgres://svc@db.internal:6432/vision']) {
      const config = loadConfig({ DATABASE_URL: url });
      expect(config.embeddedDatabase).toBe('no');
      expect(config.databaseUrl).toBe(url);
    }
  });

  it('refuses any other word than embedded, with the usual line', () => {
    expect(() => loadConfig({ DATABASE_URL: 'embeded' })).toThrow(
      'DATABASE_URL: must be a URL (got "embeded")',
    );
  });
});

describe('the .env file', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vision-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read under the environment, which wins, so a DATABASE_URL set there is configured', () => {
    writeFileSync(
      join(dir, '.env'),
      'DATABASE_URL=postgres://app@db.internal:5432/vision\nPORT=4000\n',
    );
    const env = environment({ PORT: '5000' }, dir);
    expect(env).toEqual({ DATABASE_URL: 'postgres://app@db.internal:5432/vision', PORT: '5000' });
    expect(loadConfig(env).embeddedDatabase).toBe('no');
  });

  it('changes nothing where there is none', () => {
    const shell = { PORT: '5000' };
    expect(environment(shell, dir)).toBe(shell);
  });
});
