import request from 'supertest';
import { DataSource } from 'typeorm';
import * as reader from '@/lib/x12/claim-report.reader';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { big835 } from './x12/big-reports';

const QUOTA = 3;

/**
 * Issue 40: uploads of claim reports. A report uploaded again is answered from its row without
 * being read; an account stores at most CLAIM_REPORTS_MAX_PER_DAY uploads in 24 hours.
 */
describe('claim report uploads: duplicates and the daily quota (issue 40)', () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const upload = (account: TestAccount, x12: string) =>
    http().post('/api/auth/v1/claim-reports/').set(account.auth).send({ x12 });
  const stored = async (account: TestAccount) => {
    const [{ n }]: { n: number }[] = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM claim_reports WHERE account_id = $1', [
        account.accountId,
      ]);
    return n;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { CLAIM_REPORTS_MAX_PER_DAY: String(QUOTA) } });
  });
  beforeEach(async () => {
    a = await createAccount(t.app);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t.close());

  it('answers a report uploaded again with the first answer, without reading it again', async () => {
    const read = jest.spyOn(reader, 'readClaimReport');
    const text = big835(200, 'DUPLICATE1');
    const first = await upload(a, text);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ type: '835', claims_matched: 0, claims_unmatched: 36 });
    expect(read).toHaveBeenCalledTimes(1);

    const again = await http()
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .set('Content-Type', 'text/plain')
      .send(text);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(read).toHaveBeenCalledTimes(1);
    expect(await stored(a)).toBe(1);
  });

  it('reads the same bytes again for another account: its duplicate is its own', async () => {
    const b = await createAccount(t.app);
    const read = jest.spyOn(reader, 'readClaimReport');
    const text = big835(50, 'SHARED1');
    const mine = await upload(a, text);
    const theirs = await upload(b, text);
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('refuses uploads past the quota with 429 and Retry-After, storing nothing', async () => {
    for (let i = 0; i < QUOTA; i++)
      expect((await upload(a, big835(30, `QUOTA-A-${i}`))).status).toBe(202);
    const read = jest.spyOn(reader, 'readClaimReport');

    const over = await upload(a, big835(30, 'QUOTA-A-OVER'));
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      detail: `This account has uploaded ${QUOTA} claim reports in the last 24 hours, the most it may; upload again later.`,
    });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(86_400 - 120);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(read).not.toHaveBeenCalled();
    expect(await stored(a)).toBe(QUOTA);

    // A report already stored is still answered: it stores nothing more.
    expect((await upload(a, big835(30, 'QUOTA-A-0'))).status).toBe(202);
    // The quota is the account's: another account uploads as before.
    const b = await createAccount(t.app);
    expect((await upload(b, big835(30, 'QUOTA-A-OVER'))).status).toBe(202);
  });

  it('counts only the last 24 hours', async () => {
    for (let i = 0; i < QUOTA; i++)
      expect((await upload(a, big835(30, `WINDOW-${i}`))).status).toBe(202);
    await t.app
      .get(DataSource)
      .query(
        `UPDATE claim_reports SET created_at = now() - interval '25 hours' WHERE account_id = $1`,
        [a.accountId],
      );
    expect((await upload(a, big835(30, 'WINDOW-NEXT'))).status).toBe(202);
  });
});
