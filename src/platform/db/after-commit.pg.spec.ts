import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { postgresDataSource } from '../../../test/support/postgres-source';
import { Database, managerOf, type Tx } from './database';

/**
 * The after-commit hand-off (docs/architecture.md, Shared idioms): `tx.afterCommit(fn)` runs `fn`
 * once the transaction has committed, never after a rollback; a hand-off that throws is logged,
 * the commit stands and the others run. Each transaction's fate is read from PostgreSQL itself
 * (`txid_status`), on another connection, so no table is needed.
 */
describe('Tx.afterCommit on PostgreSQL', () => {
  let db: DataSource;
  let database: Database;
  let logged: jest.SpyInstance;

  beforeAll(async () => {
    db = postgresDataSource(3);
    await db.initialize();
    database = new Database(db);
  });
  afterAll(() => db.destroy());
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  /** The transaction id of `tx`. */
  const xid = async (tx: Tx): Promise<string> =>
    (await managerOf(db, tx).query<{ x: string }[]>('SELECT txid_current()::text AS x'))[0].x;
  /** What PostgreSQL says of transaction `x`, asked outside it. */
  const fate = async (x: string): Promise<string> =>
    (await db.query<{ s: string }[]>('SELECT txid_status($1::bigint) AS s', [x]))[0].s;

  it('runs the hand-offs after the commit, in order, before the transaction answers', async () => {
    const seen: string[] = [];
    let id = '';
    const answer = await database.transaction(async (tx) => {
      id = await xid(tx);
      tx.afterCommit(async () => seen.push(`first: ${await fate(id)}`));
      tx.afterCommit(() => seen.push('second'));
      seen.push('work done');
      return 'answer';
    });
    expect(answer).toBe('answer');
    expect(seen).toEqual(['work done', 'first: committed', 'second']);
  });

  it('runs none after a rollback, and the error goes on to the caller', async () => {
    const ran = jest.fn();
    let id = '';
    await expect(
      database.transaction(async (tx) => {
        id = await xid(tx);
        tx.afterCommit(ran);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await fate(id)).toBe('aborted');
    expect(ran).not.toHaveBeenCalled();
  });

  it('runs none when a statement fails after the hand-off was added', async () => {
    const ran = jest.fn();
    await expect(
      database.transaction(async (tx) => {
        tx.afterCommit(ran);
        await managerOf(db, tx).query('SELECT 1/0');
      }),
    ).rejects.toThrow('division by zero');
    expect(ran).not.toHaveBeenCalled();
  });

  it('a hand-off that throws or rejects is logged: the commit stands and the others run', async () => {
    const seen: string[] = [];
    let id = '';
    const answer = await database.transaction(async (tx) => {
      id = await xid(tx);
      tx.afterCommit(() => {
        throw new Error('thrown');
      });
      tx.afterCommit(() => Promise.reject(new Error('rejected')));
      tx.afterCommit(() => seen.push('third'));
      return 7;
    });
    expect(answer).toBe(7);
    expect(seen).toEqual(['third']);
    expect(await fate(id)).toBe('committed');
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged.mock.calls.map((c) => (c[0] as { err: string }).err)).toEqual([
      'thrown',
      'rejected',
    ]);
  });

  it('a transaction opened inside another is its own: its hand-offs run at its own commit', async () => {
    const seen: string[] = [];
    await expect(
      database.transaction(async (outer) => {
        outer.afterCommit(() => seen.push('outer'));
        await database.transaction(async (inner) => {
          inner.afterCommit(() => seen.push('inner'));
        });
        seen.push('inner answered');
        throw new Error('outer rolls back');
      }),
    ).rejects.toThrow('outer rolls back');
    expect(seen).toEqual(['inner', 'inner answered']);
  });

  it('refuses a hand-off added once the transaction has ended', async () => {
    const ended = await database.transaction(async (tx) => tx);
    expect(() => ended.afterCommit(() => undefined)).toThrow(
      'afterCommit on a transaction that has ended',
    );
    let rolledBack: Tx | null = null;
    await database
      .transaction(async (tx) => {
        rolledBack = tx;
        throw new Error('no');
      })
      .catch(() => undefined);
    expect(() => rolledBack!.afterCommit(() => undefined)).toThrow('has ended');
  });
});
