import { availableParallelism } from 'node:os';
import { defaultProcessCount } from './database';
import { loadConfig } from './env';

describe('the default process count (WEB_CONCURRENCY unset)', () => {
  it('leaves a core to a PostgreSQL on this machine', () => {
    for (const url of [
      'postgres://postgres@127.0.0.1:5432/vision',
      'postgres://u:p@localhost/vision',
      'postgresql://u@[::1]:5432/vision',
      'postgres://u@db/vision?host=/var/run/postgresql',
    ]) {
      expect([1, 2, 4, 16].map((cores) => defaultProcessCount(url, cores))).toEqual([1, 1, 3, 15]);
    }
  });

  it('uses every core when PostgreSQL is elsewhere', () => {
    const url = 'postgres://svc@db.internal:5432/vision';
    expect([1, 2, 4, 16].map((cores) => defaultProcessCount(url, cores))).toEqual([1, 2, 4, 16]);
  });

  it('is what the configuration answers, and WEB_CONCURRENCY overrides it', () => {
    const local = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/vision' };
    const cores = availableParallelism();
    expect(loadConfig(local).webConcurrency).toBe(Math.max(1, cores - 1));
    expect(loadConfig({ ...local, WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
  });
});
