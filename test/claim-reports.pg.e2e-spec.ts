import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ClaimReportPoller } from '@/modules/claims/reports/jobs/claim-report-poller';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { FakeClaimsClearinghouse } from './support/fake-claims-clearinghouse';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';
import { signIn } from './support/web-sign-in';

const API_KEY = 'claim-reports-key';
const IDENTITY = {
  npi: '1234567893',
  organization_name: 'Clear Sight Optometry',
  tax_id: '741234567',
  address: { line1: '500 W 2nd St', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
  rendering_provider: { npi: '1245319599', first_name: 'Ana', last_name: 'Ruiz' },
};

/** The report files of the reader tests (each validated by pyx12), made about our claims. */
const report = (name: string) => readFileSync(resolve(__dirname, 'x12/reports', name), 'utf8');

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

interface ClaimBody {
  code: string;
  status: string;
  status_history: { status: string; at: string; detail: string | null }[];
  remittance: ({ remittance_id: string } & Record<string, unknown>) | null;
}

/** docs/api.md, Claim reports and remittances: 999, TA1, 277CA and 835 reports move claims and record remittances. */
describe('claim reports and remittances (docs/api.md, Claim reports and remittances)', () => {
  let fake: FakeClaimsClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

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
    await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send(IDENTITY)
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await receiver.stop();
  });

  const get = async (code: string, account = a): Promise<ClaimBody> => {
    const res = await http().get(`/api/auth/v1/claims/${code}/`).set(account.auth);
    expect(res.status).toBe(200);
    return res.body as ClaimBody;
  };
  /** A claim submitted as an 837P; its code and interchange control number. */
  const submitted = async (lastName: string, account = a) => {
    const res = await http()
      .post('/api/auth/v1/claims/')
      .set(account.auth)
      .send(claimBody(lastName));
    expect(res.status).toBe(201);
    const code = res.body.code as string;
    await waitUntil(`claim ${code} to be submitted`, async () =>
      (await get(code, account)).status === 'submitted' ? true : undefined,
    );
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT x12_control_number FROM claims WHERE code = $1', [code]);
    return { code, control: Number(row.x12_control_number) };
  };
  const upload = (x12: string, account = a) =>
    http()
      .post('/api/auth/v1/claim-reports/')
      .set(account.auth)
      .set('content-type', 'text/plain')
      .send(x12);
  const reportCount = async () =>
    Number((await t.app.get(DataSource).query('SELECT count(*) AS n FROM claim_reports'))[0].n);

  it('takes a claim submitted → accepted (277CA) → paid (835) with amounts and adjustments in words; reversed and paid again', async () => {
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/reports'), events: ['claim', 'remittance'] });
    expect(hook.status).toBe(201);
    const { code } = await submitted('Accepted');

    const ack = await upload(report('277ca-accepted.x12').replaceAll('CLM-1001', code));
    expect(ack.status).toBe(202);
    expect(ack.body).toEqual({
      id: expect.any(String),
      type: '277',
      claims_matched: 1,
      claims_unmatched: 0,
    });
    const accepted = await get(code);
    expect(accepted.status).toBe('accepted');
    expect(accepted.status_history.at(-1)!.detail).toBe(
      '277CA: accepted. A2 Acknowledgement/Acceptance into adjudication system-The claim/encounter has been accepted into the adjudication system.; 20 Accepted for processing.; entity PR Payer.',
    );

    const remit = report('835-several-claims.x12').replaceAll('CLM-1001', code);
    const paid835 = await http()
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .send({ x12: remit });
    expect(paid835.status).toBe(202);
    expect(paid835.body).toMatchObject({ type: '835', claims_matched: 1, claims_unmatched: 3 });
    const paid = await get(code);
    expect(paid.status).toBe('paid');
    expect(paid.status_history.at(-1)!.detail).toBe(
      '835 EFT20260115A from VISION BENEFITS PLAN: paid 180.0000 of 250.0000; patient responsibility 40.0000. ' +
        'Adjustments: CO-45 15.0000 Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.; ' +
        'PR-3 15.0000 Co-payment Amount; PR-2 10.0000 Coinsurance Amount; PR-1 15.0000 Deductible Amount; ' +
        'OA-23 15.0000 The impact of prior payer(s) adjudication including payments and/or adjustments.. ' +
        'Remarks: N130 Consult plan benefit documents/guidelines for information about restrictions for this service..',
    );
    expect(paid.remittance).toEqual({
      remittance_id: expect.any(String),
      status_code: '1',
      charge: '250.0000',
      paid_amount: '180.0000',
      patient_responsibility: '40.0000',
      payer_claim_control_number: 'VBP2026011500001',
      paid_at: '2026-01-15',
      payment_method: 'ACH',
      trace_number: 'EFT20260115A',
      adjustments: [],
      remarks: [
        {
          code: 'N130',
          description:
            'Consult plan benefit documents/guidelines for information about restrictions for this service.',
        },
      ],
      service_lines: [
        {
          codes: ['92014'],
          charge: '150.0000',
          paid: '110.0000',
          adjustments: [
            {
              group: 'CO',
              reason_code: '45',
              amount: '15.0000',
              description:
                'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
            },
            { group: 'PR', reason_code: '3', amount: '15.0000', description: 'Co-payment Amount' },
            { group: 'PR', reason_code: '2', amount: '10.0000', description: 'Coinsurance Amount' },
          ],
        },
        {
          codes: ['92015'],
          charge: '100.0000',
          paid: '70.0000',
          adjustments: [
            { group: 'PR', reason_code: '1', amount: '15.0000', description: 'Deductible Amount' },
            {
              group: 'OA',
              reason_code: '23',
              amount: '15.0000',
              description:
                'The impact of prior payer(s) adjudication including payments and/or adjustments.',
            },
          ],
        },
      ],
    });

    // The remittance: its list entry, its claims (matched or not, unknown CARC in words), its 835.
    const list = await http().get('/api/auth/v1/remittances/').set(a.auth);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      result: [
        {
          id: paid.remittance!.remittance_id,
          payer: { id: '1512345678', name: 'VISION BENEFITS PLAN' },
          payment_amount: '262.5000',
          payment_method: 'ACH',
          trace_number: 'EFT20260115A',
          paid_at: '2026-01-15',
          claims_matched: 1,
          claims_unmatched: 3,
          created_at: expect.any(String),
        },
      ],
      next_cursor: null,
    });
    const detail = await http()
      .get(`/api/auth/v1/remittances/${paid.remittance!.remittance_id}/`)
      .set(a.auth);
    expect(detail.status).toBe(200);
    expect(detail.body.claims.map((c: { claim_code: string | null }) => c.claim_code)).toEqual([
      code,
      null,
      null,
      null,
    ]);
    expect(detail.body.claims[2].adjustments).toEqual([
      { group: 'CO', reason_code: '999', amount: '95.0000', description: 'Unknown code 999' },
    ]);
    expect(detail.body.provider_adjustments).toEqual([
      {
        reason: 'WO',
        reference: 'VBP2025OVERPAY',
        amount: '10.0000',
        fiscal_period_end: '2026-12-31',
      },
    ]);
    const x12 = await http()
      .get(`/api/auth/v1/remittances/${paid.remittance!.remittance_id}/x12/`)
      .set(a.auth);
    expect(x12.status).toBe(200);
    expect(x12.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(x12.text).toBe(remit);

    // The same reports again change nothing: the same answer, no new history, no new remittance.
    const again = await upload(remit);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(paid835.body);
    expect((await upload(report('277ca-accepted.x12').replaceAll('CLM-1001', code))).body).toEqual(
      ack.body,
    );
    // The same payment (payer, TRN02) in another interchange is not stored twice either.
    const resent = await upload(remit.replace('*000000201*0*P*', '*000000299*0*P*'));
    expect(resent.status).toBe(202);
    expect((await get(code)).status_history).toEqual(paid.status_history);
    const remittances = await http().get('/api/auth/v1/remittances/').set(a.auth);
    expect(remittances.body.result).toHaveLength(1);

    // A reversal (CLP02 22) then the corrected payment, in one 835.
    const corrected = await upload(
      report('835-reversal-corrected.x12').replaceAll('CLM-1001', code),
    );
    expect(corrected.status).toBe(202);
    const repaid = await get(code);
    expect(repaid.status_history.map((h) => h.status)).toEqual([
      'ready',
      'submitted',
      'accepted',
      'paid',
      'reversed',
      'paid',
    ]);
    expect(repaid.status_history[4].detail).toMatch(
      /^835 EFT20260201B from VISION BENEFITS PLAN: reversal of the payment of claim VBP2026011500001: -180\.0000 taken back\. Adjustments: CO-45 -15\.0000/,
    );
    expect(repaid.remittance).toMatchObject({
      status_code: '1',
      paid_amount: '200.0000',
      trace_number: 'EFT20260201B',
      payer_claim_control_number: 'VBP2026020100001',
    });

    // Webhooks: each change (claim.status_changed: submitted, accepted, paid, reversed, paid)
    // and each remittance (remittance.received).
    const delivered = await receiver.waitFor('/reports', 7);
    const events = delivered.map((d) => d.headers['x-event-type']).sort();
    expect(events).toEqual([
      'claim.status_changed',
      'claim.status_changed',
      'claim.status_changed',
      'claim.status_changed',
      'claim.status_changed',
      'remittance.received',
      'remittance.received',
    ]);
    const remittanceBodies = delivered
      .filter((d) => d.headers['x-event-type'] === 'remittance.received')
      .map((d) => JSON.parse(d.raw.toString()) as { id: string; trace_number: string });
    expect(remittanceBodies.map((b) => b.trace_number).sort()).toEqual([
      'EFT20260115A',
      'EFT20260201B',
    ]);
    const first = remittanceBodies.find((b) => b.trace_number === 'EFT20260115A')!;
    expect(first).toEqual(detail.body);
    // The last change (the corrected payment) carries exactly the bytes of the claim's GET,
    // its `remittance` (a jsonb column) in the same key order (docs/api.md, Webhooks).
    const lastChange = delivered
      .filter((d) => d.headers['x-event-type'] === 'claim.status_changed')
      .map((d) => d.raw.toString('utf8'))
      .find(
        (raw) => (JSON.parse(raw) as { status_history: unknown[] }).status_history.length === 6,
      );
    const claimGet = await http().get(`/api/auth/v1/claims/${code}/`).set(a.auth).expect(200);
    expect(lastChange).toBe(claimGet.text);
  });

  it('rejects a claim from a 999 (IK3/IK4 with their meanings) and another from a 277CA', async () => {
    const byAck = await submitted('NineNineNine');
    const by277 = await submitted('Rejected');
    const n = String(byAck.control);
    const ack = await upload(
      report('999-rejected.x12')
        .replace('AK1*HC*1047*', `AK1*HC*${n}*`)
        .replace('AK2*837*1047*', `AK2*837*${n.padStart(4, '0')}*`),
    );
    expect(ack.status).toBe(202);
    expect(ack.body).toMatchObject({ type: '999', claims_matched: 1, claims_unmatched: 0 });
    const rejected = await get(byAck.code);
    expect(rejected.status).toBe('rejected');
    expect(rejected.status_history.at(-1)!.detail).toBe(
      `999: the 837P (ST02 ${n.padStart(4, '0')}) was rejected: Rejected (R). One or More Segments in Error (5). ` +
        'NM1 at segment 8 (loop 2010): Segment Has Data Element Errors (8); element NM109: Invalid Code Value (7) in "12345". ' +
        'DTP at segment 21 (loop 2400): Segment Has Data Element Errors (8); element DTP03: Invalid Date (8) in "2026013".',
    );

    const ca = await upload(report('277ca-rejected.x12').replaceAll('CLM-1002', by277.code));
    expect(ca.body).toMatchObject({ type: '277', claims_matched: 1, claims_unmatched: 0 });
    const rejected277 = await get(by277.code);
    expect(rejected277.status).toBe('rejected');
    expect(rejected277.status_history.at(-1)!.detail).toContain(
      "562 Entity's National Provider Identifier (NPI).; entity 85 Billing Provider",
    );
    expect(rejected277.status_history.at(-1)!.detail).toContain(
      "164 Entity's contract/member number.; entity IL Insured or Subscriber",
    );
  });

  it('rejects the claim of an interchange a TA1 rejects', async () => {
    const claim = await submitted('Interchange');
    const res = await upload(
      report('ta1-rejected.x12').replace(
        'TA1*000001049*',
        `TA1*${String(claim.control).padStart(9, '0')}*`,
      ),
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ type: '999', claims_matched: 1, claims_unmatched: 1 });
    const rejected = await get(claim.code);
    expect(rejected.status).toBe('rejected');
    expect(rejected.status_history.at(-1)!.detail).toBe(
      `TA1: the interchange ${String(claim.control).padStart(9, '0')} was rejected: Invalid Interchange Sender ID (006).`,
    );
  });

  it("processes the submit answer's own 277CA or 999 like a report", async () => {
    fake.onSubmit('OwnAccepted', {
      kind: 'accept',
      report: (c) => report('277ca-accepted.x12').replaceAll('CLM-1001', c.patientControlNumber),
    });
    fake.onSubmit('OwnRejected', {
      kind: 'accept',
      report: (c) =>
        report('999-rejected.x12')
          .replace('AK1*HC*1047*', `AK1*HC*${Number(c.controlNumber)}*`)
          .replace('AK2*837*1047*', `AK2*837*${c.controlNumber}*`),
    });
    const post = async (lastName: string) => {
      const res = await http().post('/api/auth/v1/claims/').set(a.auth).send(claimBody(lastName));
      expect(res.status).toBe(201);
      return res.body.code as string;
    };
    const accepted = await post('OwnAccepted');
    const rejected = await post('OwnRejected');
    const settled = (code: string, status: string) =>
      waitUntil(`claim ${code} to be ${status}`, async () => {
        const claim = await get(code);
        return claim.status === status ? claim : undefined;
      });
    expect((await settled(accepted, 'accepted')).status_history.map((h) => h.status)).toEqual([
      'ready',
      'submitted',
      'accepted',
    ]);
    const refused = await settled(rejected, 'rejected');
    expect(refused.status_history.map((h) => h.status)).toEqual(['ready', 'submitted', 'rejected']);
    expect(refused.status_history[2].detail).toContain('Invalid Code Value (7) in "12345"');
    const [row] = await t.app
      .get(DataSource)
      .query(
        `SELECT source, type, claims_matched FROM claim_reports WHERE source = 'submission' AND x12 LIKE '%' || $1 || '%'`,
        [accepted],
      );
    expect(row).toEqual({ source: 'submission', type: '277', claims_matched: 1 });
  });

  it('polls the reports endpoint: stores each report, then deletes it upstream; a report seen twice or left undeleted changes nothing twice', async () => {
    const { code } = await submitted('Polled');
    fake
      .addReport('r-277', '277', report('277ca-accepted.x12').replaceAll('CLM-1001', code))
      .addReport('r-835', '835', report('835-two-sets.x12').replaceAll('CLM-2001', code))
      .addReport('r-999', '999', report('999-accepted.x12'));
    // As if the poller were killed after storing the 835 and before deleting it.
    fake.failNextDelete.add('r-835');
    const poller = t.app.get(ClaimReportPoller);
    await poller.tick();

    const paid = await get(code);
    expect(paid.status_history.map((h) => h.status)).toEqual([
      'ready',
      'submitted',
      'accepted',
      'paid',
    ]);
    expect(paid.remittance).toMatchObject({
      paid_amount: '75.0000',
      patient_responsibility: '20.0000',
      payment_method: 'CHK',
      trace_number: 'CHK70001',
    });
    expect(fake.reports.map((r) => r.id)).toEqual(['r-835']);
    expect(fake.reportCalls).toEqual([
      'GET /claims/v1/reports',
      'GET /claims/v1/reports/r-277',
      'DELETE /claims/v1/reports/r-277',
      'GET /claims/v1/reports/r-835',
      'DELETE /claims/v1/reports/r-835',
      'GET /claims/v1/reports?page_token=2',
      'GET /claims/v1/reports/r-999',
      'DELETE /claims/v1/reports/r-999',
    ]);

    // Next poll: the 835 is listed again, found stored, deleted, and nothing changes twice.
    fake.reportCalls.length = 0;
    // The same 835 under another upstream id: its payment (payer, TRN02) is stored once.
    fake.addReport('r-835-again', '835', report('835-two-sets.x12').replaceAll('CLM-2001', code));
    await poller.tick();
    expect(fake.reportCalls).toEqual([
      'GET /claims/v1/reports',
      'DELETE /claims/v1/reports/r-835',
      'GET /claims/v1/reports/r-835-again',
      'DELETE /claims/v1/reports/r-835-again',
    ]);
    expect(fake.reports).toEqual([]);
    expect((await get(code)).status_history).toEqual(paid.status_history);
    const db = t.app.get(DataSource);
    const stored = await db.query(
      `SELECT external_id, type, claims_matched FROM claim_reports WHERE source = 'poller' ORDER BY created_at`,
    );
    expect(stored).toEqual([
      { external_id: 'r-277', type: '277', claims_matched: 1 },
      { external_id: 'r-835', type: '835', claims_matched: 1 },
      { external_id: 'r-999', type: '999', claims_matched: 0 },
      { external_id: 'r-835-again', type: '835', claims_matched: 1 },
    ]);
    const traces = await db.query(
      `SELECT trace_number FROM remittances WHERE claims::text LIKE '%' || $1 || '%'`,
      [code],
    );
    expect(traces).toEqual([{ trace_number: 'CHK70001' }]);
    expect(await db.query('SELECT url, page_token FROM claim_report_polls')).toEqual([
      { url: fake.reportsUrl, page_token: null },
    ]);
  });

  it('rejects one claim from a polled 999 and another from a polled 277CA, with reasons in words', async () => {
    const byAck = await submitted('PolledNineNineNine');
    const by277 = await submitted('PolledRejected');
    const st02 = String(byAck.control).padStart(4, '0');
    fake
      .addReport(
        'r-999-rejects',
        '999',
        report('999-rejected.x12')
          .replace('AK1*HC*1047*', `AK1*HC*${byAck.control}*`)
          .replace('AK2*837*1047*', `AK2*837*${st02}*`),
      )
      .addReport(
        'r-277-rejects',
        '277',
        report('277ca-rejected.x12').replaceAll('CLM-1002', by277.code),
      );
    await t.app.get(ClaimReportPoller).tick();
    expect(fake.reports).toEqual([]);
    const rejected = await get(byAck.code);
    expect(rejected.status_history.map((h) => h.status)).toEqual([
      'ready',
      'submitted',
      'rejected',
    ]);
    expect(rejected.status_history[2].detail).toContain(
      'NM1 at segment 8 (loop 2010): Segment Has Data Element Errors (8); element NM109: Invalid Code Value (7)',
    );
    const rejected277 = await get(by277.code);
    expect(rejected277.status_history.map((h) => h.status)).toEqual([
      'ready',
      'submitted',
      'rejected',
    ]);
    expect(rejected277.status_history[2].detail).toMatch(
      /^277CA: rejected\. A7 Acknowledgement\/Rejected for Invalid Information/,
    );
  });

  it('leaves a polled report it cannot read upstream, unstored, and takes the others', async () => {
    const { code } = await submitted('PolledAfterBad');
    fake
      .addReport('r-bad', '835', 'this is not an interchange')
      .addReport('r-good', '277', report('277ca-accepted.x12').replaceAll('CLM-1001', code));
    fake.reportCalls.length = 0;
    await t.app.get(ClaimReportPoller).tick();
    expect(fake.reportCalls).toEqual([
      'GET /claims/v1/reports',
      'GET /claims/v1/reports/r-bad',
      'GET /claims/v1/reports/r-good',
      'DELETE /claims/v1/reports/r-good',
    ]);
    expect(fake.reports.map((r) => r.id)).toEqual(['r-bad']);
    expect((await get(code)).status).toBe('accepted');
    const stored = await t.app
      .get(DataSource)
      .query(`SELECT 1 FROM claim_reports WHERE external_id = 'r-bad'`);
    expect(stored).toEqual([]);
    fake.reports.length = 0;
  });

  it('shows the remittance in the web application: its page (payment, claims, adjustments in words, unmatched claims) and the claim page', async () => {
    const c = await createAccount(t.app);
    await http()
      .patch(`/api/auth/v1/locations/${c.locationCode}/`)
      .set(c.auth)
      .send(IDENTITY)
      .expect(200);
    const { code } = await submitted('WebRemit', c);
    const res = await upload(report('835-several-claims.x12').replaceAll('CLM-1001', code), c);
    expect(res.status).toBe(202);
    const { remittance } = await get(code, c);
    const id = remittance!.remittance_id;

    const { agent } = await signIn(t.app, c.email, c.password);
    const list = await agent.get('/app/remittances/').expect(200);
    expect(list.text).toContain(`href="/app/remittances/${id}/"`);
    expect(list.text).toContain('$262.50');
    expect(list.text).toContain('EFT (ACH)');

    const page = await agent.get(`/app/remittances/${id}/`).expect(200);
    expect(page.text).toContain('VISION BENEFITS PLAN');
    expect(page.text).toContain(`href="/app/claims/${code}/"`);
    expect(page.text).toContain(
      'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
    );
    expect(page.text).toContain('Unknown code 999');
    expect(page.text).toContain('Unmatched: <span class="mono">UNKNOWN-77</span>');
    expect(page.text).toContain('VBP2025OVERPAY');
    const x12 = await agent.get(`/app/remittances/${id}/x12`).expect(200);
    expect(x12.text).toContain('CLP*' + code + '*1*250*180*');

    const claimPage = await agent.get(`/app/claims/${code}/`).expect(200);
    expect(claimPage.text).toContain('id="remittance"');
    expect(claimPage.text).toContain('$180.00');
    expect(claimPage.text).toContain('$40.00');
    expect(claimPage.text).toContain('Co-payment Amount');
    expect(claimPage.text).toContain(`href="/app/remittances/${id}/"`);

    // An unknown remittance is a 404 page.
    await agent.get(`/app/remittances/00000000-0000-4000-8000-000000000000/`).expect(404);
  });

  it("matches only the uploading account's claims", async () => {
    const b = await createAccount(t.app);
    const { code } = await submitted('OtherAccount');
    const res = await upload(report('277ca-accepted.x12').replaceAll('CLM-1001', code), b);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ claims_matched: 0, claims_unmatched: 1 });
    expect((await get(code)).status).toBe('submitted');
    const foreign = await http()
      .get(`/api/auth/v1/remittances/00000000-0000-4000-8000-000000000000/`)
      .set(b.auth);
    expect(foreign.status).toBe(404);
  });

  it('answers 400 with the parse error for a file that is not X12, and stores nothing', async () => {
    const before = await reportCount();
    const garbage = await upload('hello, this is not a remittance');
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({
      errors: {
        x12: { $: ['X12: an interchange starts with ISA, this text starts with "hello, thi"'] },
      },
    });
    const broken = await http()
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .send({ x12: report('835-two-sets.x12').replace('CLP*CLM-2001*1*', 'CLP*CLM-2001*9*') });
    expect(broken.status).toBe(400);
    expect(broken.body.errors.x12.$).toEqual([
      'X12 segment 13 (CLP): CLP02 "9" is not a claim status code (expected 1, 2, 3, 4, 19, 20, 21, 22, 23, 25)',
    ]);
    const empty = await http().post('/api/auth/v1/claim-reports/').set(a.auth).send({});
    expect(empty.status).toBe(400);
    expect(await reportCount()).toBe(before);
  });
});
