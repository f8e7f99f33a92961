import request from 'supertest';
import { DataSource } from 'typeorm';
import { ClaimReportPoller } from '@/modules/claims/reports/jobs/claim-report-poller';
import { report } from './x12/report-files';
import { createTestApp, TestApp } from './support/app';
import { runCli } from './support/cli';
import { createAccount, TestAccount } from './support/factories';
import { FakeClaimsClearinghouse } from './support/fake-claims-clearinghouse';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';
import { signIn } from './support/web-sign-in';

const API_KEY = 'polled-reports-key';
const IDENTITY = {
  npi: '1234567893',
  organization_name: 'Clear Sight Optometry',
  tax_id: '741234567',
  address: { line1: '500 W 2nd St', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
  rendering_provider: { npi: '1245319599', first_name: 'Ana', last_name: 'Ruiz' },
};

const person = (lastName: string) => ({
  first_name: 'Maria',
  last_name: lastName,
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  address: { line1: '1208 Congress Ave', city: 'Austin', zipcode: '78701', state: 'TX' },
});

const claimBody = (lastName: string) => ({
  patient: person(lastName),
  primary_member: { ...person(lastName), insurer_code: 'insurer:vision:vsp' },
  services: [
    { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '150', diagnosis_codes: ['H52.13'] },
    { codes: ['92015'], date: '2026-11-14', quantity: 1, cost: '100' },
  ],
  paid_amount: '0',
});

/**
 * Issue 40: a report the poller takes belongs to no account and may name claims of any. Each
 * account sees only its own claims of a polled 835; what no account owns is the operator's; a
 * polled acknowledgment never moves claims of two accounts; control numbers are never shared.
 */
describe('polled claim reports and tenants', () => {
  let fake: FakeClaimsClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    fake = await FakeClaimsClearinghouse.start(API_KEY);
    await receiver.start();
    t = await createTestApp({
      env: {
        CLEARINGHOUSE_CLAIMS_URL: fake.claimsUrl,
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        INSURER_PAYER_IDS: 'insurer:vision:vsp=VSP01',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
        // The poller is ticked by the tests themselves.
        CLEARINGHOUSE_REPORTS_URL: fake.reportsUrl,
        CLAIM_REPORTS_INTERVAL_MS: '86400000',
      },
    });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    for (const account of [a, b]) {
      await http()
        .patch(`/api/auth/v1/locations/${account.locationCode}/`)
        .set(account.auth)
        .send(IDENTITY)
        .expect(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await receiver.stop();
  });

  const status = async (code: string, account: TestAccount): Promise<string> => {
    const res = await http().get(`/api/auth/v1/claims/${code}/`).set(account.auth);
    expect(res.status).toBe(200);
    return res.body.status as string;
  };
  /** A claim submitted as an 837P: its code, control number and clearinghouse id. */
  const submitted = async (lastName: string, account: TestAccount) => {
    const res = await http()
      .post('/api/auth/v1/claims/')
      .set(account.auth)
      .send(claimBody(lastName));
    expect(res.status).toBe(201);
    const code = res.body.code as string;
    await waitUntil(`claim ${code} to be submitted`, async () =>
      (await status(code, account)) === 'submitted' ? true : undefined,
    );
    const [row] = await db().query(
      'SELECT x12_control_number, clearinghouse_id FROM claims WHERE code = $1',
      [code],
    );
    return {
      code,
      control: Number(row.x12_control_number),
      trace: row.clearinghouse_id as string,
    };
  };

  it("shows each account only its own claims of a polled 835 (GET, x12, web page, webhook); the unknown ones are the operator's", async () => {
    for (const [account, path] of [
      [a, '/a'],
      [b, '/b'],
    ] as const) {
      await http()
        .post('/api/auth/v1/webhooks/')
        .set(account.auth)
        .send({ url: receiver.url(path), events: ['remittance'] })
        .expect(201);
    }
    const mine = await submitted('Alpha', a);
    const theirs = await submitted('Bravo', b);
    // CLM-1001 (JANE DOE) is a's, CLM-1002 (RICHARD ROE) b's; CLM-1003 (EDGAR POE) and
    // UNKNOWN-77 (ANNA NOBODY) are no claim of the service's.
    const x12 = report('835-several-claims.x12')
      .replaceAll('CLM-1001', mine.code)
      .replaceAll('CLM-1002', theirs.code);
    fake.addReport('r-mixed', '835', x12);
    await t.app.get(ClaimReportPoller).tick();
    expect(fake.reports).toEqual([]);
    expect(await status(mine.code, a)).toBe('paid');
    expect(await status(theirs.code, b)).toBe('paid');

    const views = [
      { account: a, path: '/a', code: mine.code, patient: 'JANE DOE', paid: '180.0000' },
      { account: b, path: '/b', code: theirs.code, patient: 'RICHARD ROE', paid: '0.0000' },
    ];
    for (const v of views) {
      const others = [
        ...views.filter((o) => o !== v).flatMap((o) => [o.code, ...o.patient.split(' ')]),
        'CLM-1003',
        'EDGAR',
        'POE',
        'UNKNOWN-77',
        'NOBODY',
        'ANNA',
      ];
      const list = await http().get('/api/auth/v1/remittances/').set(v.account.auth);
      expect(list.body.result).toEqual([
        expect.objectContaining({
          payment_amount: v.paid,
          trace_number: 'EFT20260115A',
          claims_matched: 1,
          claims_unmatched: 0,
        }),
      ]);
      const id = list.body.result[0].id as string;
      const detail = await http().get(`/api/auth/v1/remittances/${id}/`).set(v.account.auth);
      expect(detail.status).toBe(200);
      expect(detail.body.claims.map((c: { claim_code: string }) => c.claim_code)).toEqual([v.code]);
      expect(detail.body.claims[0].patient_name).toBe(v.patient);
      // The PLB of a payment two accounts share is neither's.
      expect(detail.body.provider_adjustments).toEqual([]);
      const part = await http().get(`/api/auth/v1/remittances/${id}/x12/`).set(v.account.auth);
      expect(part.status).toBe(200);
      expect(part.text).toContain(`CLP*${v.code}*`);
      expect(part.text).not.toContain('PLB*');
      const { agent } = await signIn(t.app, v.account.email, v.account.password);
      const page = await agent.get(`/app/remittances/${id}/`).expect(200);
      expect(page.text).toContain(`href="/app/claims/${v.code}/"`);
      expect(page.text).not.toContain('Unmatched');
      const pageX12 = await agent.get(`/app/remittances/${id}/x12`).expect(200);
      const [hook] = await receiver.waitFor(v.path, 1);
      expect(hook.headers['x-event-type']).toBe('remittance.received');
      const body = hook.raw.toString();
      expect(JSON.parse(body)).toEqual(detail.body);
      for (const text of [JSON.stringify(detail.body), part.text, page.text, pageX12.text, body])
        for (const other of others) expect(text).not.toContain(other);
      // The other account's remittance is not this one's to read.
      const otherId = (
        await http()
          .get('/api/auth/v1/remittances/')
          .set(views.find((o) => o !== v)!.account.auth)
      ).body.result[0].id as string;
      await http().get(`/api/auth/v1/remittances/${otherId}/x12/`).set(v.account.auth).expect(404);
    }

    const listed = await runCli(['reports:unmatched']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const { unmatched } = JSON.parse(listed.stdout) as {
      unmatched: { kind: string; reference: string; amount: string; external_id: string }[];
    };
    const fromThis = unmatched.filter((u) => u.external_id === 'r-mixed');
    expect(fromThis.map((u) => [u.kind, u.reference, u.amount]).sort()).toEqual([
      ['claim', 'CLM-1003', '0.0000'],
      ['claim', 'UNKNOWN-77', '92.5000'],
      ['provider_adjustment', 'VBP2025OVERPAY', '10.0000'],
    ]);
    expect(listed.stdout).not.toMatch(/NOBODY|ANNA|EDGAR/);
  });

  it('moves no claim when a polled 999 or 277CA names claims of two accounts', async () => {
    const a1 = await submitted('SharedNumber', a);
    const b1 = await submitted('SharedNumberToo', b);
    // As two random control numbers could (before the sequence) or a wrapped sequence can.
    await db().query('UPDATE claims SET x12_control_number = $1 WHERE code = $2', [
      a1.control,
      b1.code,
    ]);
    const a2 = await submitted('SharedTrace', a);
    const b2 = await submitted('SharedTraceToo', b);
    fake
      .addReport(
        'r-999-shared',
        '999',
        report('999-rejected.x12')
          .replace('AK1*HC*1047*', `AK1*HC*${a1.control}*`)
          .replace('AK2*837*1047*', `AK2*837*${String(a1.control).padStart(4, '0')}*`),
      )
      .addReport(
        'r-277-shared',
        '277',
        report('277ca-rejected.x12')
          .replaceAll('CLM-1002', a2.code)
          .replace('REF*1K*VBP2026011300002~', `REF*1K*VBP2026011300002~REF*D9*${b2.trace}~`)
          .replace('SE*27*0001~', 'SE*28*0001~'),
      );
    await t.app.get(ClaimReportPoller).tick();
    expect(fake.reports).toEqual([]);
    for (const [code, account] of [
      [a1.code, a],
      [b1.code, b],
      [a2.code, a],
      [b2.code, b],
    ] as const)
      expect(await status(code, account)).toBe('submitted');
    const stored = await db().query(
      `SELECT external_id, claims_matched, claims_unmatched FROM claim_reports
       WHERE external_id IN ('r-999-shared', 'r-277-shared') ORDER BY external_id`,
    );
    expect(stored).toEqual([
      { external_id: 'r-277-shared', claims_matched: 0, claims_unmatched: 1 },
      { external_id: 'r-999-shared', claims_matched: 0, claims_unmatched: 1 },
    ]);
  });

  it("numbers new claims' interchanges from the deployment's sequence: distinct and increasing", async () => {
    const first = await submitted('FirstNumber', a);
    const second = await submitted('SecondNumber', b);
    expect(second.control).toBeGreaterThan(first.control);
    const [{ last_value }] = await db().query('SELECT last_value FROM x12_control_numbers');
    expect(Number(last_value)).toBe(second.control);
    const isa13 = (control: number) => `*${String(control).padStart(9, '0')}*0*`;
    const sent = fake.submissions.map((s) => s.x12);
    expect(sent.filter((x) => x.includes(isa13(first.control)))).toHaveLength(1);
    expect(sent.filter((x) => x.includes(isa13(second.control)))).toHaveLength(1);
  });
});
