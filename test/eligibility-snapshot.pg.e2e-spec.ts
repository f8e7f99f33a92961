import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatMoney } from '@/platform/kernel/money';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { asBytes, pdfText } from './support/pdf-text';
import { waitUntil } from './support/queues';
import { HEADER_TO_SUBSCRIBER, transaction271 } from './x12/fixtures';

type Json = any;

const VSP = 'insurer:vision:vsp';
const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-snapshot';
const TASKS = '/api/auth/v1/verification-tasks/';
const PRACTICE = {
  npi: '1234567893',
  organization_name: 'Clear Sight Optometry',
  tax_id: '741234567',
  address: { line1: '12 Lamar Blvd', city: 'Austin', state: 'TX', zipcode: '78701-4121' },
};

/** The V2 items of a plan, depth first. */
const itemsOf = (items: Json[]): Json[] => items.flatMap((i) => [i, ...itemsOf(i.items ?? [])]);

/** A page's text with its line breaks as spaces (a table cell may wrap anywhere). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The eligibility snapshot (docs/api.md, Eligibility): a check printed as a PDF, read back with
 * a PDF text extractor (pdf.js through test/support/pdf-text.ts).
 */
describe('eligibility snapshot PDF (docs/api.md, Eligibility)', () => {
  let fake: FakeClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());

  /** GET the snapshot as bytes. */
  const download = (uid: string, query: Record<string, unknown>, who = a, requestId?: string) => {
    const call = http()
      .get(`/api/auth/v2/eligibility/${encodeURIComponent(uid)}/pdf/`)
      .query(query)
      .set(who.auth);
    if (requestId) call.set('X-Request-Id', requestId);
    return call.buffer(true).parse(asBytes);
  };

  /** The snapshot of one person of a result, as text. */
  async function snapshotText(uid: string, resultId: number, personId: number) {
    const res = await download(uid, { result_id: resultId, person_id: personId });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { text, pages } = await pdfText(res.body as Buffer);
    return { text: flat(text), pages };
  }

  beforeAll(async () => {
    fake = await FakeClearinghouse.start({ apiKey: API_KEY });
    t = await createTestApp({
      env: {
        CLEARINGHOUSE_ELIGIBILITY_URL: fake.eligibilityUrl,
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        SEARCH_RETRY_BASE_MS: '20',
        INSURER_TIMEOUT_MS: '2000',
      },
    });
    a = await createAccount(t.app);
    await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send(PRACTICE)
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('prints a sandbox search: practice, patient, plan, every benefit value and date, the sandbox as how; the download is an audit event', async () => {
    const uid = await startSearch(t.app, a.auth, {
      patient: patient({ last_name: 'Snapshot', member_id: 'SNAP1001' }),
    });
    const body = await waitForResult(t.app, a.auth, uid);
    const result = body.results[0];
    const person = result.persons[0];
    const requestId = randomUUID();
    const res = await download(uid, { result_id: result.id, person_id: person.id }, a, requestId);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      `eligibility-${uid}-${result.id}-${person.id}.pdf`,
    );
    const { text, pages } = await pdfText(res.body as Buffer);
    const all = flat(text);
    for (const value of [
      'Eligibility snapshot',
      'Clear Sight Optometry',
      '1234567893',
      '12 Lamar Blvd, Austin, TX 78701-4121',
      person.full_name,
      person.dob,
      'SNAP1001',
      'Demo Vision (sandbox)',
      result.plan_name,
      result.plan_group,
      `${result.plan_begin_date} to ${result.plan_end_date}`,
      'Complete',
      'The sandbox answered with its test data',
      uid,
    ])
      expect(all).toContain(value);
    // Each copay and allowance that applies on a network (its flagged entry, else its general
    // one: docs/api.md, V1 and V2 results) is printed, as money.
    const items = itemsOf(person.plan.items);
    const amounts = items.flatMap((i: Json) =>
      [i.copayment, i.allowance].flatMap((list: Json[] | undefined) =>
        ['inn', 'oon'].flatMap((n) => {
          const e = list?.find((x) => x.flags?.includes(n)) ?? list?.find((x) => !x.flags?.length);
          return e ? [formatMoney(e.value)] : [];
        }),
      ),
    );
    expect(amounts.length).toBeGreaterThan(5);
    for (const amount of new Set(amounts)) expect(all).toContain(amount);
    for (const i of items) {
      if (i.next_eligible_date) expect(all).toContain(i.next_eligible_date);
      if (i.last_service_date) expect(all).toContain(i.last_service_date);
    }
    // The tree runs over pages: its headings are printed again on each.
    expect(pages).toBeGreaterThan(1);
    expect(all.split('Next eligible').length - 1).toBeGreaterThanOrEqual(pages);

    const events = await http()
      .get('/api/auth/v1/audit-events/')
      .query({ resource_type: 'eligibility_request', resource_id: uid })
      .set(a.auth)
      .expect(200);
    expect(events.body.result.filter((e: Json) => e.request_id === requestId)).toEqual([
      expect.objectContaining({
        action: 'read',
        resource_type: 'eligibility_request',
        resource_id: uid,
      }),
    ]);
  });

  it('prints an assisted answer: the plan the verifier gave, its dates, and their evidence', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ first_name: 'Ana', last_name: 'Verified', member_id: 'VSP5550001' }),
    });
    const taskId = (
      await waitUntil(`task of ${uid}`, async () => {
        const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth).expect(200);
        return res.body.verification;
      })
    ).task_id;
    await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          {
            status: 'active',
            plan_name: 'VSP Signature Plan',
            plan_group: 'Austin Unified',
            plan_group_id: 'GRP-30551',
            plan_begin_date: '2026-01-01',
            plan_end_date: '2026-12-31',
            plan_is_active: true,
            persons: [
              {
                first_name: 'Ana',
                last_name: 'Verified',
                dob: '1984-06-15',
                member_id: 'VSP5550001',
                type: 'self',
                plan: {
                  insurer_state: 'oon',
                  items: [
                    {
                      benefit_code: 'exam',
                      refresh_date: '2027-01-01',
                      copayment: [{ flags: ['inn'], value: '15' }],
                      allowance: [{ flags: ['oon'], value: '45' }],
                      last_service_date: '2026-03-02',
                      next_eligible_date: '2027-03-02',
                    },
                    {
                      benefit_code: 'materials.frames',
                      refresh_date: '2027-01-01',
                      allowance: [{ value: '175' }],
                      last_service_date: '2025-06-12',
                      next_eligible_date: '2027-06-12',
                    },
                  ],
                },
              },
            ],
          },
        ],
        evidence: {
          source: 'phone',
          reference_number: 'CALL-20261124-0042',
          representative: 'Dana at VSP provider services',
          checked_at: '2026-11-24T15:04:00Z',
        },
      })
      .expect(200);
    const body = await waitForResult(t.app, a.auth, uid);
    const { text } = await snapshotText(uid, body.results[0].id, body.results[0].persons[0].id);
    for (const value of [
      'Clear Sight Optometry',
      '1234567893',
      'Ana Verified',
      '1984-06-15',
      'VSP5550001',
      'VSP Vision Care',
      'VSP Signature Plan',
      'Austin Unified, GRP-30551',
      '2026-01-01 to 2026-12-31',
      'Checked by a person by telephone',
      'CALL-20261124-0042',
      'Dana at VSP provider services',
      '2026-11-24 15:04 UTC',
      taskId,
      'In: $15.00',
      'Out: $45.00',
      '$175.00',
      '2026-03-02',
      '2027-03-02',
      '2025-06-12',
      '2027-06-12',
    ])
      expect(text).toContain(value);
    // The verifier's dates come with their basis: the payer stated both.
    expect(text).toMatch(
      /Frames — \$175\.00 — 2025-06-12 per the payer 2027-06-12 stated by the payer/,
    );
  });

  it('prints a clearinghouse answer with the control numbers of the 270 sent and the 271 received, and the date the payer states', async () => {
    const jane = patient({
      first_name: 'Jane',
      last_name: 'Doe',
      dob: '1980-01-15',
      member_id: 'DV1234567',
    });
    fake.answer({
      kind: 'x12',
      build: (inquiry) =>
        transaction271(
          [
            ...HEADER_TO_SUBSCRIBER,
            'NM1*IL*1*DOE*JANE****MI*DV1234567~',
            'DMG*D8*19800115*F~',
            'DTP*346*D8*20260101~',
            'EB*1*IND*30**VISION CHOICE PLAN~',
            'EB*F*IND*AM***23*150*****N~',
            'HSD*VS*1***34*24~',
            'DTP*304*D8*20250831~',
            'DTP*348*D8*20270831~',
          ],
          { trace: inquiry.subscriber.traces[0].trace },
        ),
    });
    const uid = await startSearch(t.app, a.auth, { insurer_code: DAVIS, patient: jane });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    const sent = fake.calls.at(-1)!.inquiry!;
    const { text } = await snapshotText(uid, body.results[0].id, body.results[0].persons[0].id);
    for (const value of [
      'Davis Vision',
      'Electronic: an X12 270 inquiry',
      `270 sent interchange (ISA13) ${sent.isa.controlNumber}`,
      `group (GS06) ${sent.group.controlNumber}, transaction (ST02) ${sent.controlNumber}, reference (BHT03) ${sent.reference}`,
      '271 received interchange (ISA13) 000000101, group (GS06) 101, transaction (ST02) 0001',
      `Trace number ${sent.subscriber.traces[0].trace}`,
      'Frames',
      '$150.00',
      '2025-08-31',
      '2027-08-31',
    ])
      expect(text).toContain(value);
  });
});
