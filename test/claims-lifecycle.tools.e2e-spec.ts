import { simpleParser } from 'mailparser';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { read837 } from './x12/x837.reader';
import { check837Structure } from './x12/x837.structure';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { FakeClaimsClearinghouse } from './support/fake-claims-clearinghouse';
import { pdfText } from './support/pdf-text';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

const API_KEY = 'claims-key-123';
const NPI = '1234567893';
/** What a location needs before its claims go electronic (docs/api.md, Claims). */
const IDENTITY = {
  npi: NPI,
  organization_name: 'Clear Sight Optometry',
  tax_id: '741234567',
  address: { line1: '500 W 2nd St', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
  rendering_provider: { npi: '1245319599', first_name: 'Ana', last_name: 'Ruiz' },
};
const PYX12 = process.env.PYX12_DIR ?? resolve(__dirname, '../third_party/pyx12');

/** The independent 5010 validator's verdict on an 837P (third_party/pyx12): its errors. */
async function pyx12(x12: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sent-837-'));
  try {
    const file = join(dir, 'claim.x12');
    await writeFile(file, x12);
    const out = await promisify(execFile)(
      '/usr/bin/python3',
      ['-m', 'pyx12.scripts.x12valid', file],
      { cwd: PYX12, timeout: 60_000 },
    ).catch((e: { stdout?: string; stderr?: string }) => ({
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? 'pyx12 did not run',
    }));
    const lines = `${out.stdout}\n${out.stderr}`.split('\n');
    if (!lines.some((l) => l.includes(`${file}: OK`))) return lines.filter((l) => l.trim());
    return lines.filter((l) => /ERROR|Failure|Traceback/.test(l));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const person = (lastName: string) => ({
  first_name: 'Maria',
  last_name: lastName,
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  address: { line1: '1208 Congress Ave', city: 'Austin', zipcode: '78701', state: 'TX' },
});

/** A VSP claim: exam, two lenses at 90.50, a frame (total 1401.25). */
const claimBody = (lastName: string, insurer = 'insurer:vision:vsp') => ({
  patient: person(lastName),
  primary_member: { ...person(lastName), insurer_code: insurer },
  services: [
    { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '145', diagnosis_codes: ['H52.13'] },
    { codes: ['V2100'], date: '2026-11-14', quantity: 2, cost: '90.5' },
    { codes: ['V2020'], date: '2026-11-15', quantity: 1, cost: '1075.25' },
  ],
  paid_amount: '1200.75',
});

interface ClaimBody {
  code: string;
  status: string;
  status_history: { status: string; at: string; detail: string | null }[];
  submission: {
    channel: string;
    clearinghouse_id: string | null;
    submitted_at: string;
    detail: string | null;
  } | null;
}

/** docs/api.md, Claim lifecycle: claims go out as 837P (or paper), and are followed to a final state. */
describe('claim submission and lifecycle (docs/api.md, Claim lifecycle)', () => {
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
        CLEARINGHOUSE_CLAIM_STATUS_URL: fake.statusUrl,
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        INSURER_PAYER_IDS: 'insurer:vision:vsp=VSP01',
        CLAIM_STATUS_INTERVAL_MS: '300',
        // docs/api.md, Claim reports and remittances: 276/277 only for insurers that answer it, a few times per claim.
        INSURER_CLAIM_STATUS: 'insurer:vision:vsp',
        CLAIM_STATUS_MAX_CHECKS: '6',
        CLAIM_SUBMIT_RETRY_BASE_MS: '100',
        CLAIM_SUBMIT_MAX_ATTEMPTS: '3',
        // The clearinghouse that takes a claim and never answers: the call gives up after this.
        INSURER_TIMEOUT_MS: '1500',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
      },
    });
    a = await createAccount(t.app);
    // The practice's provider identity (docs/api.md, Real insurers and Claims): the 837P's billing provider.
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

  const create = async (body: object, account = a): Promise<ClaimBody> => {
    const res = await http().post('/api/auth/v1/claims/').set(account.auth).send(body);
    expect(res.status).toBe(201);
    return res.body as ClaimBody;
  };
  const get = async (code: string, account = a): Promise<ClaimBody> => {
    const res = await http().get(`/api/auth/v1/claims/${code}/`).set(account.auth);
    expect(res.status).toBe(200);
    return res.body as ClaimBody;
  };
  const waitForStatus = (code: string, status: string, account = a) =>
    waitUntil(`claim ${code} to be ${status}`, async () => {
      const claim = await get(code, account);
      return claim.status === status ? claim : undefined;
    });
  const statuses = (c: ClaimBody) => c.status_history.map((h) => h.status);

  it('submits a VSP claim as an 837P and answers `submitted` with the clearinghouse id', async () => {
    fake.onSubmit('Submitted', { kind: 'accept', id: 'CH-000123' });
    const created = await create(claimBody('Submitted'));
    expect(created.status).toBe('ready');
    const claim = await waitForStatus(created.code, 'submitted');
    expect(claim.submission).toEqual({
      channel: 'x12',
      clearinghouse_id: 'CH-000123',
      submitted_at: expect.stringMatching(/\+00:00$/),
      detail: null,
    });
    expect(statuses(claim)).toEqual(['ready', 'submitted']);
    expect(claim.status_history[1].detail).toContain('CH-000123');

    const [sent] = fake.submissionsFor(created.code);
    expect(sent.authorization).toBe(API_KEY);
    expect(sent.parseError).toBeNull();
    expect(sent.claim).toMatchObject({
      implementationReference: '005010X222A1',
      patientControlNumber: created.code,
      totalCharge: '1401.25',
      billingProvider: { entity: '85', idQualifier: 'XX', id: NPI },
      payer: { idQualifier: 'PI', id: 'VSP01' },
      subscriber: { lastName: 'SUBMITTED', id: 'VSP104882211' },
      patient: null,
      diagnoses: ['H5213'],
    });
    expect(sent.claim!.services.map((s) => [s.procedure[1], s.charge, s.quantity])).toEqual([
      ['92014', '145', '1'],
      ['V2100', '181', '2'],
      ['V2020', '1075.25', '1'],
    ]);

    const x12 = await http().get(`/api/auth/v1/claims/${created.code}/x12/`).set(a.auth);
    expect(x12.status).toBe(200);
    expect(x12.headers['content-type']).toMatch(/^text\/plain/);
    expect(x12.text).toBe(sent.x12);
    expect(read837(x12.text).patientControlNumber).toBe(created.code);
    // docs/api.md, Claims: the 837P the service sent conforms to the guide, here and independently.
    expect(check837Structure(sent.x12, { patientPaid: true })).toEqual([]);
    expect(sent.x12).toContain('~AMT*F5*1200.75~');
    expect(sent.x12).toContain('~NM1*82*1*RUIZ*ANA****XX*1245319599~PRV*PE*PXC*152W00000X~');
    expect(await pyx12(sent.x12)).toEqual([]);
  });

  it('answers `submission_failed` with the reason when the clearinghouse refuses the file', async () => {
    fake.onSubmit('Refused', { kind: 'refuse', errors: ['Subscriber member id is invalid'] });
    const created = await create(claimBody('Refused'));
    const claim = await waitForStatus(created.code, 'submission_failed');
    expect(statuses(claim)).toEqual(['ready', 'submission_failed']);
    expect(claim.status_history[1].detail).toContain('Subscriber member id is invalid');
    expect(claim.submission).toBeNull();
    // A refusal is final: no second attempt is made.
    expect(fake.submissionsFor(created.code)).toHaveLength(1);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT job_due_at FROM claims WHERE code = $1', [created.code]);
    expect(row.job_due_at).toBeNull();
  });

  it('retries a transient 503 and then answers `submitted`', async () => {
    fake.onSubmit('Transient', { kind: 'http', status: 503 }, { kind: 'accept', id: 'CH-RETRY' });
    const created = await create(claimBody('Transient'));
    const claim = await waitForStatus(created.code, 'submitted');
    expect(statuses(claim)).toEqual(['ready', 'submission_failed', 'submitted']);
    expect(claim.status_history[1].detail).toMatch(/HTTP 503.*will retry/);
    expect(claim.submission?.clearinghouse_id).toBe('CH-RETRY');
    expect(fake.submissionsFor(created.code)).toHaveLength(2);
  });

  it('retries a claim the clearinghouse took before its answer was lost as the same interchange, with the same Idempotency-Key (docs/api.md, Claims)', async () => {
    fake.onSubmit('Timeout', { kind: 'store-then-timeout', id: 'CH-TAKEN' });
    const created = await create(claimBody('Timeout'));
    const claim = await waitForStatus(created.code, 'submitted');
    expect(statuses(claim)).toEqual(['ready', 'submission_failed', 'submitted']);
    expect(claim.status_history[1].detail).toMatch(
      /did not answer before the deadline; will retry/,
    );
    // The retry's key found the claim the clearinghouse had taken: its id, not a second claim.
    expect(claim.submission?.clearinghouse_id).toBe('CH-TAKEN');
    const [first, retry] = fake.submissionsFor(created.code);
    expect(fake.submissionsFor(created.code)).toHaveLength(2);
    expect(first.answeredWith.kind).toBe('store-then-timeout');
    expect(retry.x12).toBe(first.x12);
    expect(first.idempotencyKey).toMatch(new RegExp(`^${created.code}-\\d{9}$`));
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
    const control = (c: typeof first) => [
      c.claim!.isa.controlNumber,
      c.claim!.group.controlNumber,
      c.claim!.controlNumber,
    ];
    expect(control(retry)).toEqual(control(first));
    expect([...fake.stored.values()].filter((v) => v.x12 === first.x12)).toHaveLength(1);
  });

  it('keeps the interchange and the key of a claim across a 503 retry', async () => {
    fake.onSubmit('Samecontrol', { kind: 'http', status: 503 }, { kind: 'accept' });
    const created = await create(claimBody('Samecontrol'));
    await waitForStatus(created.code, 'submitted');
    const [first, retry] = fake.submissionsFor(created.code);
    expect(retry.x12).toBe(first.x12);
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT x12_control_number FROM claims WHERE code = $1', [created.code]);
    expect(String(row.x12_control_number).padStart(9, '0')).toBe(first.claim!.isa.controlNumber);
  });

  it('sends the claims of a location without an address, tax id or rendering provider on paper, saying what is missing', async () => {
    const c = await createAccount(t.app);
    await http()
      .patch(`/api/auth/v1/locations/${c.locationCode}/`)
      .set(c.auth)
      .send({ npi: NPI, organization_name: 'Clear Sight Optometry' })
      .expect(200);
    const created = await create(claimBody('Noaddress'), c);
    const waiting = await waitForStatus(created.code, 'ready_to_mail', c);
    const reasons =
      `The location ${c.locationCode} has no tax id, no street address. ` +
      `No rendering provider (the individual NPI who gave the care) on the claim or the location ${c.locationCode}.`;
    expect(waiting.status_history[1].detail).toBe(
      `Paper claim form (CMS-1500), to be mailed to VSP Vision Care. ${reasons}`,
    );
    expect(fake.submissionsFor(created.code)).toEqual([]);
    const mailed = await http().post(`/api/auth/v1/claims/${created.code}/mailed/`).set(c.auth);
    expect(mailed.body.submission).toMatchObject({ channel: 'paper', detail: reasons });
  });

  it('sends a second procedure code on a line, a zero total or a member known only by SSN on paper with the reason', async () => {
    const body = claimBody('Twocodes');
    const twoCodes = await create({
      ...body,
      services: [{ ...body.services[0], codes: ['92014', '92015'] }, ...body.services.slice(1)],
    });
    const zero = await create({
      ...claimBody('Zerototal'),
      services: body.services.map((s) => ({ ...s, cost: '0' })),
    });
    const ssn = { ...person('Ssnonly'), member_id: null, ssn_last_four: '6789' };
    const bySsn = await create({
      ...claimBody('Ssnonly'),
      patient: ssn,
      primary_member: { ...ssn, insurer_code: 'insurer:vision:vsp' },
    });
    const detail = async (code: string) =>
      (await waitForStatus(code, 'ready_to_mail')).status_history[1].detail;
    expect(await detail(twoCodes.code)).toBe(
      'Paper claim form (CMS-1500), to be mailed to VSP Vision Care. One procedure code per service line is needed to file electronically. Service 1 has 92014 and 92015.',
    );
    expect(await detail(zero.code)).toContain('The total charge is zero.');
    expect(await detail(bySsn.code)).toContain(
      "The primary member has no member id (the payer's card).",
    );
    for (const c of [twoCodes, zero, bySsn]) expect(fake.submissionsFor(c.code)).toEqual([]);
  });

  it("names the claim's own rendering provider in 2310B, instead of the location's", async () => {
    const created = await create({
      ...claimBody('Rendering'),
      rendering_provider: {
        npi: '1003000126',
        first_name: 'Owen',
        last_name: 'Núñez',
        taxonomy_code: '152wc0802x',
      },
    });
    expect((created as unknown as { rendering_provider: unknown }).rendering_provider).toEqual({
      npi: '1003000126',
      first_name: 'Owen',
      last_name: 'Núñez',
      taxonomy_code: '152WC0802X',
    });
    await waitForStatus(created.code, 'submitted');
    const [sent] = fake.submissionsFor(created.code);
    expect(sent.x12).toContain('~NM1*82*1*NUNEZ*OWEN****XX*1003000126~PRV*PE*PXC*152WC0802X~');
    expect(check837Structure(sent.x12, { patientPaid: true })).toEqual([]);

    const organisation = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send({
        ...claimBody('Rendering'),
        rendering_provider: { npi: NPI, first_name: 'Clear', last_name: 'Sight' },
      });
    expect(organisation.status).toBe(400);
    expect(organisation.body).toEqual({
      errors: {
        rendering_provider: {
          npi: {
            $: [
              "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.",
            ],
          },
        },
      },
    });
  });

  it('follows the claim with 276/277 until paid, delivering each change to `claim` webhooks only', async () => {
    const b = await createAccount(t.app);
    await http()
      .patch(`/api/auth/v1/locations/${b.locationCode}/`)
      .set(b.auth)
      .send(IDENTITY)
      .expect(200);
    const hook = async (path: string, events?: string[]) => {
      const res = await http()
        .post('/api/auth/v1/webhooks/')
        .set(b.auth)
        .send({ url: receiver.url(path), ...(events ? { events } : {}) });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };
    await hook('/claims', ['claim']);
    const eligibilityOnly = await hook('/eligibility');
    fake.onStatus(
      'Paid',
      { kind: '277', category: 'A1', code: '20' },
      { kind: '277', category: 'A2', code: '20' },
      { kind: '277', category: 'P1', code: '20' },
      { kind: '277', category: 'F1', code: '65', payment: '980.5', message: 'Paid' },
    );
    const created = await create(claimBody('Paid'), b);
    const claim = await waitForStatus(created.code, 'paid', b);
    expect(statuses(claim)).toEqual(['ready', 'submitted', 'accepted', 'paid']);
    expect(claim.status_history[2].detail).toBe(
      '277 A2:20 (Acknowledgement/Acceptance into adjudication system-The claim/encounter has been accepted into the adjudication system.; Accepted for processing.)',
    );
    expect(claim.status_history[3].detail).toBe(
      '277 F1:65 (Finalized/Payment-The claim/line has been paid.; Claim/line has been paid.), paid 980.5: Paid',
    );
    const calls = fake.statusCalls.filter((c) => c.claimCode === created.code);
    expect(calls.length).toBe(4);
    expect(calls[0].x12).toContain('ST*276*');

    const delivered = await receiver.waitFor('/claims', 3);
    const bodies = delivered
      .map((d) => JSON.parse(d.raw.toString()) as ClaimBody)
      .sort((x, y) => x.status_history.length - y.status_history.length);
    expect(bodies.map((d) => d.status)).toEqual(['submitted', 'accepted', 'paid']);
    for (const d of delivered) expect(d.headers['x-event-type']).toBe('claim.status_changed');
    expect(bodies[2]).toEqual(await get(created.code, b));

    // Paid is final: no more checks, no more deliveries.
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT job_due_at FROM claims WHERE code = $1', [created.code]);
    expect(row.job_due_at).toBeNull();
    const log = await http()
      .get(`/api/auth/v1/webhooks/${eligibilityOnly.id}/deliveries/`)
      .set(b.auth);
    expect(log.body.result).toEqual([]);
    expect(receiver.forPath('/eligibility')).toEqual([]);
  });

  it('stops checking a claim after CLAIM_STATUS_MAX_CHECKS answers that decide nothing: it waits for reports (docs/api.md, Claim reports and remittances)', async () => {
    const created = await create(claimBody('Undecided'));
    await waitForStatus(created.code, 'submitted');
    const db = t.app.get(DataSource);
    const row = await waitUntil('the status checks to stop', async () => {
      const [r] = await db.query(
        'SELECT status, status_checks, job_due_at FROM claims WHERE code = $1',
        [created.code],
      );
      return r.job_due_at === null ? r : undefined;
    });
    expect(row).toEqual({ status: 'submitted', status_checks: 6, job_due_at: null });
    expect(fake.statusCalls.filter((c) => c.claimCode === created.code)).toHaveLength(6);
  });

  it('keeps a paper claim ready_to_mail until POST .../mailed/ moves it to submitted (docs/api.md, Errors)', async () => {
    const m = await createAccount(t.app);
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(m.auth)
      .send({ url: receiver.url('/mailed-claims'), events: ['claim'] })
      .expect(201);
    const created = await create(claimBody('Mailbox', 'insurer:demo:vision'), m);
    const waiting = await waitForStatus(created.code, 'ready_to_mail', m);
    // docs/api.md, Claims: its route is known (paper, the claim form), not yet when it went.
    expect(waiting.submission).toEqual({
      channel: 'paper',
      clearinghouse_id: null,
      submitted_at: null,
      detail: 'Demo Vision (sandbox) has no electronic claims route.',
    });
    expect(waiting.status_history[1].detail).toMatch(
      /^Paper claim form \(CMS-1500\), to be mailed/,
    );

    const other = await createAccount(t.app);
    const foreign = await http()
      .post(`/api/auth/v1/claims/${created.code}/mailed/`)
      .set(other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: `Claim ${created.code} not found.` });
    expect((await get(created.code, m)).status).toBe('ready_to_mail');

    const mailed = await http().post(`/api/auth/v1/claims/${created.code}/mailed/`).set(m.auth);
    expect(mailed.status).toBe(200);
    expect(mailed.body.status).toBe('submitted');
    expect(mailed.body.submission).toEqual({
      channel: 'paper',
      clearinghouse_id: null,
      submitted_at: expect.stringMatching(/\+00:00$/),
      detail: 'Demo Vision (sandbox) has no electronic claims route.',
    });
    expect(statuses(mailed.body as ClaimBody)).toEqual(['ready', 'ready_to_mail', 'submitted']);
    expect((mailed.body as ClaimBody).status_history[2].detail).toBe(
      'Paper claim form mailed to Demo Vision (sandbox) (marked through the API).',
    );
    expect(await get(created.code, m)).toEqual(mailed.body);
    // Each change was delivered to the claim webhook, the last one the claim's GET body.
    const delivered = await receiver.waitFor('/mailed-claims', 2);
    const bodies = delivered
      .map((d) => JSON.parse(d.raw.toString()) as ClaimBody)
      .sort((x, y) => x.status_history.length - y.status_history.length);
    expect(bodies.map((d) => d.status)).toEqual(['ready_to_mail', 'submitted']);
    for (const d of delivered) expect(d.headers['x-event-type']).toBe('claim.status_changed');
    expect(bodies[1]).toEqual(mailed.body);

    const again = await http().post(`/api/auth/v1/claims/${created.code}/mailed/`).set(m.auth);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      detail: `Claim ${created.code} is submitted, not ready_to_mail: only a paper claim waiting to be mailed can be marked as mailed.`,
    });
  });

  it('answers 409 to POST .../mailed/ for an electronic claim', async () => {
    fake.onSubmit('Electronic', { kind: 'accept', id: 'CH-EL1' });
    const created = await create(claimBody('Electronic'));
    await waitForStatus(created.code, 'submitted');
    const res = await http().post(`/api/auth/v1/claims/${created.code}/mailed/`).set(a.auth);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('is submitted, not ready_to_mail');
  });

  it('sends a claim without an electronic route on paper: the CMS-1500 holds every value, and the e-mail attaches it', async () => {
    const created = await create(claimBody('Papertrail', 'insurer:demo:vision'));
    const claim = await waitForStatus(created.code, 'ready_to_mail');
    // docs/api.md, Claims: a claim to mail says so, not yet submitted.
    expect(claim.submission).toMatchObject({
      channel: 'paper',
      clearinghouse_id: null,
      submitted_at: null,
    });
    const noX12 = await http().get(`/api/auth/v1/claims/${created.code}/x12/`).set(a.auth);
    expect(noX12.status).toBe(404);
    expect(noX12.body.detail).toContain(created.code);

    const form = await http()
      .get(`/api/auth/v1/claims/${created.code}/form/`)
      .set(a.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(form.status).toBe(200);
    expect(form.headers['content-type']).toBe('application/pdf');
    const pdf = form.body as Buffer;
    const { text, pages } = await pdfText(pdf);
    for (const value of [
      created.code,
      'PAPERTRAIL, MARIA',
      'Demo Vision (sandbox)',
      'Mail this form to Demo Vision (sandbox), Attn: Sandbox Claims, 100 Example Way, Austin, TX 78701.',
      'Clear Sight Optometry',
      NPI,
      '92014',
      'V2100',
      'V2020',
      'H5213',
      '145.00',
      '181.00',
      '1075.25',
      '$ 1401.25',
      '$ 1200.75',
    ])
      expect(text).toContain(value);
    expect(pages).toBe(1);

    const notified = await http()
      .post(`/api/auth/v1/claims/${created.code}/notify-customer/`)
      .set(a.auth)
      .send({ email: 'maria@example.com' });
    expect(notified.status).toBe(200);
    const file = await waitUntil('the e-mail file', async () => {
      const [row] = await t.app
        .get(DataSource)
        .query(`SELECT status, delivered_to FROM mail_messages WHERE ref = $1`, [created.code]);
      return row?.status === 'sent' ? (row.delivered_to as string) : undefined;
    });
    const mail = await simpleParser(await readFile(file));
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.filename).toBe(`claim-${created.code}.pdf`);
    expect((await pdfText(attachment.content)).text).toContain(created.code);
  });

  it('answers 404 for the form and the 837P of a claim of another account', async () => {
    const created = await create(claimBody('Isolated'));
    const other = await createAccount(t.app);
    for (const path of ['form', 'x12']) {
      const res = await http().get(`/api/auth/v1/claims/${created.code}/${path}/`).set(other.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Claim ${created.code} not found.` });
    }
  });

  it('shows claims in the web application: the list, the status history, the form and the 837P', async () => {
    fake.onSubmit('Webpage', { kind: 'accept', id: 'CH-WEB1' });
    const created = await create(claimBody('Webpage'));
    await waitForStatus(created.code, 'submitted');
    const web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(login.text)![1];
    await web
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: a.email, password: a.password })
      .expect(302);

    const list = await web.get('/app/claims/').expect(200);
    expect(list.text).toContain(`/app/claims/${created.code}/`);
    const page = await web.get(`/app/claims/${created.code}/`).expect(200);
    expect(page.text).toContain('Status history');
    expect(page.text).toContain('clearinghouse id CH-WEB1');
    expect(page.text).toMatch(/<pre class="mono" id="x12">ISA\*00\*/);
    expect(page.text).toContain(`CLM*${created.code}*1401.25*`);
    const form = await web.get(`/app/claims/${created.code}/form`).expect(200);
    expect(form.headers['content-type']).toBe('application/pdf');
    const x12 = await web.get(`/app/claims/${created.code}/x12`).expect(200);
    expect(x12.text).toBe(fake.submissionsFor(created.code)[0].x12);

    const other = await createAccount(t.app);
    const foreign = await create(claimBody('Foreign'), other);
    await web.get(`/app/claims/${foreign.code}/`).expect(404);
    await web.get(`/app/claims/${foreign.code}/form`).expect(404);
  });

  it('e-mails the patient and marks a paper claim as mailed from its web page', async () => {
    const created = await create(claimBody('Webmail', 'insurer:demo:vision'));
    await waitForStatus(created.code, 'ready_to_mail');
    const web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(login.text)![1];
    await web
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: a.email, password: a.password })
      .expect(302);
    const page = await web.get(`/app/claims/${created.code}/`).expect(200);
    expect(page.text).toContain('Mark as mailed');
    expect(page.text).toContain('E-mail the patient');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];

    const refused = await web
      .post(`/app/claims/${created.code}/notify`)
      .type('form')
      .send({ _csrf: token, email: 'not-an-address' })
      .expect(400);
    expect(refused.text).toMatch(/<div class="field-error">Enter a valid email address\.<\/div>/);
    await web
      .post(`/app/claims/${created.code}/notify`)
      .type('form')
      .send({ _csrf: token, email: 'webmail@example.com' })
      .expect(302);
    await waitUntil('the e-mail', async () => {
      const [row] = await t.app
        .get(DataSource)
        .query(`SELECT status FROM mail_messages WHERE ref = $1 AND to_address = $2`, [
          created.code,
          'webmail@example.com',
        ]);
      return row?.status === 'sent' ? true : undefined;
    });

    await web
      .post(`/app/claims/${created.code}/mailed`)
      .type('form')
      .send({ _csrf: token })
      .expect(302);
    const claim = await get(created.code);
    expect(statuses(claim)).toEqual(['ready', 'ready_to_mail', 'submitted']);
    expect(claim.status_history[2].detail).toContain('marked in the web application');
    const after = await web.get(`/app/claims/${created.code}/`).expect(200);
    expect(after.text).not.toContain('id="mark-mailed"');
  });

  it("prints the account's own claims mailing address, set on the Insurers page, instead of the table's", async () => {
    const b = await createAccount(t.app);
    const created = await create(claimBody('Override', 'insurer:vision:eye_med'), b);
    const web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(login.text)![1];
    await web
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: b.email, password: b.password })
      .expect(302);
    const page = await web.get('/app/insurers/').expect(200);
    expect(page.text).toContain('P.O. Box 8504<br>Mason, OH 45040-7111');
    expect(page.text).toContain('Source: eyemed.com/en-us/out-of-network-claims');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const save = (text: string) =>
      web.post('/app/insurers/mailing-address').type('form').send({
        _csrf: token,
        insurer_code: 'insurer:vision:eye_med',
        claims_mailing_address: text,
      });

    const refused = await save('EyeMed\nP.O. Box 1\nsomewhere').expect(400);
    expect(refused.text).toContain(
      'Write the payer&#39;s name, the street or P.O. box, and last the city, state and ZIP code',
    );
    await save(
      'EyeMed Group Plan 77\n  Attn: OON Claims \nP.O. Box 9999\nMason, OH 45040\n',
    ).expect(302);
    const text = async () => {
      const form = await http()
        .get(`/api/auth/v1/claims/${created.code}/form/`)
        .set(b.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      return (await pdfText(form.body as Buffer)).text.replace(/\s+/g, ' ');
    };
    expect(await text()).toContain(
      'Mail this form to EyeMed Group Plan 77, Attn: OON Claims, P.O. Box 9999, Mason, OH 45040.',
    );
    expect((await web.get('/app/insurers/')).text).toContain('Your address');

    await save('').expect(302);
    expect(await text()).toContain(
      'Mail this form to EyeMed Vision Care, Attn: OON Claims, P.O. Box 8504, Mason, OH 45040-7111.',
    );
  });
});
