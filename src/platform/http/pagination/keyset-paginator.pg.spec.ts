import { randomUUID } from 'node:crypto';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { ValidationFailed } from '@/platform/kernel/errors';
import { loadConfig } from '@/platform/config/env';
import { ensureDatabase } from '@/platform/db/data-source';
import { entityColumns } from '@/platform/db/entity-columns';
import { compile, sql } from '@/platform/db/sql';
import { KeysetPage, keysetPage, keysetSql } from './keyset-paginator';

/**
 * The paginator against the real PostgreSQL, without HTTP, on a table of its own whose
 * `created_at` keeps microseconds (like `webhook_deliveries`), so rows can share a millisecond.
 */
@Entity('keyset_probe')
class Probe {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  list: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

// A database of its own beside this Jest worker's (test/support/env.ts names it; the run's
// teardown drops both).
const url = `${loadConfig().databaseUrl}_pager`;

/** Six rows in one millisecond (two of them in the same microsecond), around two older ones. */
const TIMES = [
  '2026-11-21T13:51:16.925999Z',
  '2026-11-21T13:51:16.926000Z',
  '2026-11-21T13:51:16.926100Z',
  '2026-11-21T13:51:16.926200Z',
  '2026-11-21T13:51:16.926200Z',
  '2026-11-21T13:51:16.926798Z',
  '2026-11-21T13:51:16.926999Z',
  '2026-11-21T13:51:16.927000Z',
];

describe('keyset paginator (PostgreSQL)', () => {
  let db: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url);
    db = new DataSource({
      type: 'postgres',
      url,
      entities: [Probe],
      synchronize: false,
      // Another session time zone than UTC: cursors must not depend on it.
      extra: { max: 2, options: '-c TimeZone=America/New_York' },
    });
    await db.initialize();
    await db.query(`DROP TABLE IF EXISTS keyset_probe`);
    await db.query(
      `CREATE TABLE keyset_probe (id uuid PRIMARY KEY, list text NOT NULL,
         created_at timestamptz NOT NULL)`,
    );
    await db.query(
      `CREATE INDEX keyset_probe_list_created_idx ON keyset_probe (list, created_at DESC, id DESC)`,
    );
  });
  afterAll(() => db?.destroy());
  beforeEach(() => db.query('TRUNCATE keyset_probe'));

  const insert = async (list: string, times: string[]) => {
    for (const t of times) {
      await db.query('INSERT INTO keyset_probe (id, list, created_at) VALUES ($1, $2, $3)', [
        randomUUID(),
        list,
        t,
      ]);
    }
  };
  const expected = async (list: string): Promise<string[]> =>
    (
      await db.query<{ id: string }[]>(
        'SELECT id FROM keyset_probe WHERE list = $1 ORDER BY created_at DESC, id DESC',
        [list],
      )
    ).map((r) => r.id);
  const listQuery = (list: string) =>
    sql`SELECT ${entityColumns(db, Probe, 'p')} FROM keyset_probe p WHERE p.list = ${list}`;

  /** Every page of `list` at `limit`, following next_cursor to the end. */
  const walk = async (list: string, limit: number) => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: KeysetPage<Probe> = await keysetPage<Probe>(db, listQuery(list), {
        limit,
        cursor,
      });
      expect(page.result.length).toBeLessThanOrEqual(limit);
      pages.push(page.result.map((p) => p.id));
      cursor = page.next_cursor;
    } while (cursor && pages.length <= TIMES.length + 1);
    return pages;
  };

  it.each([1, 2, 3, 5])(
    'walks rows that share a millisecond, %i per page, each once and newest first',
    async (limit) => {
      await insert('a', TIMES);
      await insert('b', TIMES.slice(0, 3));
      const pages = await walk('a', limit);
      expect(pages.flat()).toEqual(await expected('a'));
      expect(pages).toHaveLength(Math.ceil(TIMES.length / limit));
    },
  );

  it.each([1, 2, 3, 5])(
    'walks oldest first with `ascending`, %i per page, each row once',
    async (limit) => {
      await insert('a', TIMES);
      await insert('b', TIMES.slice(0, 3));
      const ids: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: KeysetPage<Probe> = await keysetPage<Probe>(
          db,
          listQuery('a'),
          { limit, cursor },
          { ascending: true },
        );
        ids.push(...page.result.map((p) => p.id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages <= TIMES.length + 1);
      expect(ids).toEqual((await expected('a')).reverse());
      expect(pages).toBe(Math.ceil(TIMES.length / limit));
    },
  );

  it('answers the rows as the SELECT names them, and no next_cursor after the last', async () => {
    await insert('a', TIMES.slice(0, 4));
    const all = await keysetPage<Probe>(db, listQuery('a'), { limit: 4 });
    expect(all.next_cursor).toBeNull();
    expect(all.result[0]).toEqual({
      id: expect.any(String),
      list: 'a',
      createdAt: expect.any(Date),
    });
    expect(all.result.map((p) => p.id)).toEqual(await expected('a'));
    const first = await keysetPage<Probe>(db, listQuery('a'), { limit: 3 });
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await keysetPage<Probe>(db, listQuery('a'), {
      limit: 3,
      cursor: first.next_cursor,
    });
    expect(rest.result.map((p) => p.id)).toEqual((await expected('a')).slice(3));
    expect(rest.next_cursor).toBeNull();
    expect(await keysetPage<Probe>(db, listQuery('empty'), { limit: 3 })).toEqual({
      result: [],
      next_cursor: null,
    });
  });

  it('continues after the cursor row while newer rows are added between pages', async () => {
    await insert('a', TIMES);
    const before = await expected('a');
    const first = await keysetPage<Probe>(db, listQuery('a'), { limit: 3 });
    await insert('a', ['2026-11-21T13:51:16.926999Z', '2026-11-22T00:00:00.000001Z']);
    const second = await keysetPage<Probe>(db, listQuery('a'), {
      limit: 100,
      cursor: first.next_cursor,
    });
    expect([...first.result, ...second.result].map((p) => p.id)).toEqual(before);
  });

  it('refuses a malformed cursor with a field error on the named field', async () => {
    const attempt = (cursorField?: string) =>
      keysetPage<Probe>(db, listQuery('a'), { limit: 2, cursor: 'bm90IG91cnM', cursorField });
    await expect(attempt()).rejects.toBeInstanceOf(ValidationFailed);
    await expect(attempt()).rejects.toMatchObject({
      errors: { cursor: { $: ['Invalid cursor.'] } },
    });
    await expect(attempt('after')).rejects.toMatchObject({
      errors: { after: { $: ['Invalid cursor.'] } },
    });
  });

  it('pages with one index range scan, no sort and no offset', async () => {
    await insert('a', TIMES);
    const first = await keysetPage<Probe>(db, listQuery('a'), { limit: 2 });
    for (const cursor of [null, first.next_cursor]) {
      const { text, values } = compile(keysetSql(listQuery('a'), { limit: 2, cursor }));
      const plan = await db.transaction(async (em) => {
        // A few rows are cheaper to scan and sort whole; forbid that, so the plan shows whether
        // the index alone can answer the page (a Sort here would mean it cannot).
        for (const off of ['seqscan', 'bitmapscan', 'sort'])
          await em.query(`SET LOCAL enable_${off} = off`);
        const rows: { 'QUERY PLAN': string }[] = await em.query(`EXPLAIN ${text}`, values);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index (Only )?Scan using keyset_probe_list_created_idx/);
      if (cursor) expect(plan).toMatch(/Index Cond: .*ROW\(created_at, id\) < ROW/);
      expect(plan).not.toMatch(/Sort|Offset/);
    }
  });
});
