import { Database } from '@/platform/db/database';
import { QuotesRepository } from '@/modules/quotes/store/quotes.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

/**
 * The SQL of QuotesRepository (docs/api.md, The counter), one snapshot per method, each with
 * what the method answered.
 */
describe('quotes repository', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let accountId: string;
  let otherAccountId: string;

  beforeAll(async () => {
    t = await createTestContext();
    ({ accountId } = await createPractice(t.ctx));
    ({ accountId: otherAccountId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  const quote = (account: string) => ({
    accountId: account,
    requestUid: 'visit-0001',
    personId: 7,
    locationId: null,
    patientName: 'Maria Garcia',
    planName: 'Vision Plus',
    insurerCode: 'insurer:demo:vision',
    dateOfService: '2026-11-21',
    patientAge: 42,
    body: { lines: [], retail: '0.0000' },
  });

  it('stores a quote, finds it for its account only, and deletes those past the limit', async () => {
    const quotes = t.ctx.get(QuotesRepository);
    const { id } = await rec('insert', () => quotes.insert(quote(accountId)));
    const found = await rec('find', () => quotes.find(accountId, id));
    expect(found).toMatchObject({
      id,
      patientName: 'Maria Garcia',
      personId: 7,
      body: { lines: [], retail: '0.0000' },
    });
    expect(await quotes.find(otherAccountId, id)).toBeNull();
    const other = await quotes.insert(quote(otherAccountId));

    const database = t.ctx.get(Database);
    const purged = await rec('purge', () =>
      database.transaction((tx) => quotes.purge(new Date(Date.now() + 60_000), 1, tx)),
    );
    expect(purged).toBe(1);
    const left = [await quotes.find(accountId, id), await quotes.find(otherAccountId, other.id)];
    expect(left.filter(Boolean)).toHaveLength(1);
    expect(await quotes.purge(new Date(0), 10)).toBe(0);
  });

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);
});
