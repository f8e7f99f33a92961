import type { DataSource } from 'typeorm';
import { postgresDataSource } from '../../../test/support/postgres-source';
import { recordSql } from '../../../test/support/sql-recorder';
import { Database } from './database';
import { pgPool } from './pg-pool';
import { execute, query, queryOne, sql } from './sql';

/**
 * The SQL tag's run functions: rows and counts alike in a transaction (the query runner) and
 * without one (the pool, as a named prepared statement).
 */
describe('sql run functions on PostgreSQL', () => {
  let db: DataSource;
  let database: Database;

  beforeAll(async () => {
    // One connection, so the temporary table is seen by every statement.
    db = postgresDataSource(1);
    await db.initialize();
    database = new Database(db);
    await db.query('CREATE TEMP TABLE sql_probe (id int PRIMARY KEY, tag text)');
  });
  afterAll(() => db.destroy());

  it('answers rows, the first row and counts, with and without a transaction', async () => {
    const t = sql.raw('sql_probe');
    const inserted = await database.transaction(async (tx) => {
      const values = sql.join([1, 2, 3].map((n) => sql`(${n}, ${`t${n}`})`));
      return execute(db, sql`INSERT INTO ${t} (id, tag) VALUES ${values}`, tx);
    });
    expect(inserted).toBe(3);
    const ids = [1, 3];
    expect(
      await query<{ id: number }>(
        db,
        sql`SELECT id FROM ${t} WHERE id = ANY(${ids}::int[]) ORDER BY id`,
      ),
    ).toEqual([{ id: 1 }, { id: 3 }]);
    expect(await queryOne(db, sql`SELECT tag FROM ${t} WHERE id = ${2}`)).toEqual({ tag: 't2' });
    expect(await queryOne(db, sql`SELECT tag FROM ${t} WHERE id = ${9}`)).toBeNull();
    const updated = await database.transaction((tx) =>
      query<{ id: number }>(db, sql`UPDATE ${t} SET tag = ${'u'} WHERE id < ${3} RETURNING id`, tx),
    );
    expect(updated.map((r) => r.id).sort()).toEqual([1, 2]);
    expect(await execute(db, sql`DELETE FROM ${t} WHERE tag = ${'u'}`)).toBe(2);
  });

  it('names the statement outside a transaction and not inside one', async () => {
    const pool = pgPool(db);
    const spy = jest.spyOn(pool, 'query');
    const recording = recordSql();
    try {
      await query(db, sql`SELECT ${1}::int AS one`);
      await database.transaction((tx) => query(db, sql`SELECT ${2}::int AS two`, tx));
      expect(spy.mock.calls.map((c) => c[0])).toEqual([
        expect.objectContaining({
          name: expect.stringMatching(/^s[0-9a-f]{24}$/),
          text: 'SELECT $1::int AS one',
          values: [1],
        }),
      ]);
      expect(recording.take()).toEqual(['SELECT $1::int AS one', 'SELECT $1::int AS two']);
    } finally {
      recording.stop();
      spy.mockRestore();
    }
  });
});
