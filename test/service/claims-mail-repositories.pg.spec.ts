import { createHash, randomBytes } from 'node:crypto';
import { Database } from '@/platform/db/database';
import type { Claim } from '@/modules/claims/store/claim.entity';
import { ClaimsQueue } from '@/modules/claims/jobs/claims.queue';
import { ClaimsRepository, type NewServiceLine } from '@/modules/claims/store/claims.repository';
import { ClaimReportsRepository } from '@/modules/claims/reports/store/claim-reports.repository';
import { PolledReportsRepository } from '@/modules/claims/reports/store/polled-reports.repository';
import { RemittancesRepository } from '@/modules/claims/reports/store/remittances.repository';
import { MailMessagesRepository } from '@/modules/mail/store/mail-messages.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const tag = () => randomBytes(4).toString('hex');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const person = {
  first_name: 'Ana',
  last_name: 'Lopez',
  dob: '1980-01-02',
  type: null,
  sex: null,
  member_id: 'M123',
  ssn_last_four: null,
  email: null,
  phone: null,
  address: null,
};

const line = (position: number): NewServiceLine => ({
  position,
  codes: ['92014'],
  serviceDate: '2026-11-02',
  quantity: 1,
  cost: '120.0000',
  diagnosisCodes: ['H52.13'],
});

/**
 * The SQL of the claims, claim reports, remittances and mail repositories, one snapshot per
 * method: a change to a statement shows in review as a snapshot diff.
 */
describe('claims and mail repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let database: Database;
  let claims: ClaimsRepository;
  let reports: ClaimReportsRepository;
  let remittances: RemittancesRepository;
  let polled: PolledReportsRepository;
  let mail: MailMessagesRepository;
  let accountId: string;
  let locationId: string;

  /** Runs `call` alone on the recording and snapshots its statements. */
  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  const newClaim = (code: string) =>
    database.transaction(async (tx) => {
      const stored = await claims.insert(
        {
          accountId,
          locationId,
          code,
          status: 'ready',
          statusHistory: [{ status: 'ready', at: new Date().toISOString(), detail: null }],
          createdAt: new Date(),
          insurerCode: 'insurer:vision:vsp',
          patient: person,
          primaryMember: person,
          paidAmount: '0.0000',
          acceptAssignment: false,
          metadata: null,
          renderingProvider: null,
        },
        [line(0), line(1)],
        tx,
      );
      await t.ctx.get(ClaimsQueue).setDue(stored.claim.id, 0, tx);
      return stored;
    });

  beforeAll(async () => {
    t = await createTestContext();
    database = t.ctx.get(Database);
    claims = t.ctx.get(ClaimsRepository);
    reports = t.ctx.get(ClaimReportsRepository);
    remittances = t.ctx.get(RemittancesRepository);
    polled = t.ctx.get(PolledReportsRepository);
    mail = t.ctx.get(MailMessagesRepository);
    ({ accountId, locationId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('ClaimsRepository', async () => {
    const code = `CLM${tag()}`.toUpperCase();
    const { claim, services } = await rec('claims.insert', () => newClaim(code));
    expect(claim).toMatchObject({ accountId, code, status: 'ready' });
    expect(services.map((s) => s.position)).toEqual([0, 1]);
    const other = (await newClaim(`CLM${tag()}`.toUpperCase())).claim;

    expect((await rec('claims.findById', () => claims.findById(claim.id)))?.code).toBe(code);
    expect((await rec('claims.findByCode', () => claims.findByCode(accountId, code)))?.id).toBe(
      claim.id,
    );
    const locked = await database.transaction((tx) =>
      rec('claims.lockById', () => claims.lockById(claim.id, tx)),
    );
    expect(locked?.id).toBe(claim.id);
    const page = await rec('claims.page', () => claims.page(accountId, 1));
    expect(page.result.map((c) => c.id)).toEqual([other.id]);
    expect(page.next_cursor).not.toBeNull();
    const lines = await rec('claims.linesOf', () => claims.linesOf(claim.id));
    expect(lines.map((l) => [l.position, l.claimId])).toEqual([
      [0, claim.id],
      [1, claim.id],
    ]);
    const both = await rec('claims.linesOfClaims', () =>
      claims.linesOfClaims([claim.id, other.id]),
    );
    expect(both).toHaveLength(4);

    await rec('claims.update', () =>
      claims.update(claim.id, {
        status: 'submitted',
        submissionChannel: 'x12',
        clearinghouseId: `TRACE-${code}`,
      }),
    );
    expect((await claims.findById(claim.id))?.status).toBe('submitted');
    const createdAt = new Date('2026-11-02T10:00:00Z');
    const kept = await rec('claims.keepEnvelope', () => claims.keepEnvelope(claim.id, createdAt));
    expect(kept).toEqual({ controlNumber: expect.any(Number), createdAt });
    const again = await claims.keepEnvelope(claim.id, new Date());
    expect(again).toEqual(kept);
    // The next claim's number is the sequence's next: never one another claim has.
    const next = await claims.keepEnvelope(other.id, createdAt);
    expect(next.controlNumber).toBe((kept.controlNumber % 999_999_999) + 1);
    expect(await rec('claims.countCheck', () => claims.countCheck(claim.id))).toBe(1);

    const scope = { accountId };
    const byNumber = await rec('claims.byControlNumber', () =>
      claims.byControlNumber(scope, kept.controlNumber),
    );
    expect(byNumber.map((c: Claim) => c.id)).toEqual([claim.id]);
    const byTrace = await rec('claims.byCodeOrTrace', () =>
      claims.byCodeOrTrace(scope, 'NO-SUCH-CODE', `TRACE-${code}`),
    );
    expect(byTrace.map((c) => c.id)).toEqual([claim.id]);
    const byCodes = await rec('claims.byCodes', () => claims.byCodes(scope, [code, other.code]));
    expect(byCodes.map((c) => c.id).sort()).toEqual([claim.id, other.id].sort());
  });

  it('ClaimReportsRepository and RemittancesRepository', async () => {
    const x12 = `ISA*${tag()}~`;
    const received = { accountId, externalId: null, contentSha256: sha(x12) };
    const report = { ...received, source: 'upload' as const, type: '835' as const, x12 };
    const id = await rec('reports.insertOnce', () =>
      reports.insertOnce({ ...report, warnings: [] }),
    );
    expect(id).not.toBeNull();
    expect(await reports.insertOnce({ ...report, warnings: [] })).toBeNull();
    expect((await rec('reports.getReceived', () => reports.getReceived(received))).id).toBe(id);
    await rec('reports.setCounts', () => reports.setCounts(id!, 2, 1));
    expect(await reports.getReceived(received)).toMatchObject({
      claimsMatched: 2,
      claimsUnmatched: 1,
    });
    expect(await rec('polled.accountX12', () => polled.accountX12(id!, accountId))).toBe(x12);
    expect(await rec('reports.isStored', () => reports.isStored(`none-${tag()}`))).toBe(false);
    const url = `https://clearinghouse.test/${tag()}/reports`;
    expect(await rec('reports.pageToken', () => reports.pageToken(url))).toBeNull();
    await rec('reports.savePageToken', () => reports.savePageToken(url, 'page-2'));
    expect(await reports.pageToken(url)).toBe('page-2');

    const payment = {
      accountId,
      reportId: id!,
      payerId: 'VSP',
      payerName: 'VSP Vision',
      traceNumber: `TRN-${tag()}`,
      paymentAmount: '100.0000',
      paymentMethod: 'ACH',
      paidAt: '2026-11-02',
      claims: [],
      providerAdjustments: [],
      claimsMatched: 0,
      claimsUnmatched: 0,
    };
    const remittanceId = await rec('remittances.insertOnce', () => remittances.insertOnce(payment));
    expect(remittanceId).not.toBeNull();
    expect(await remittances.insertOnce(payment)).toBeNull();
    const row = await rec('remittances.getById', () => remittances.getById(remittanceId!));
    expect(row).toMatchObject({ accountId, traceNumber: payment.traceNumber });
    const mine = await rec('remittances.findOfAccount', () =>
      remittances.findOfAccount(accountId, remittanceId!),
    );
    expect(mine?.id).toBe(remittanceId);
    const page = await rec('remittances.page', () => remittances.page(accountId, 10));
    expect(page.result.map((r) => r.id)).toEqual([remittanceId]);
  });

  it('PolledReportsRepository', async () => {
    const other = await createPractice(t.ctx);
    const x12 = `ISA*${tag()}~`;
    const id = await reports.insertOnce({
      accountId: null,
      externalId: `r-${tag()}`,
      contentSha256: sha(x12),
      source: 'poller',
      type: '835',
      x12,
      warnings: [],
    });
    await rec('polled.insertParts', () =>
      polled.insertParts(id!, new Map([[accountId, 'ISA*mine~']])),
    );
    // An account reads its own part; another account, or the polled whole, nothing.
    expect(await polled.accountX12(id!, accountId)).toBe('ISA*mine~');
    expect(await polled.accountX12(id!, other.accountId)).toBeNull();
    const item = {
      kind: 'claim' as const,
      payerId: 'VSP',
      payerName: 'VSP Vision',
      traceNumber: `TRN-${tag()}`,
      reference: 'UNKNOWN-77',
      amount: '92.5',
      detail: { status_code: '1', payer_claim_control_number: 'VBP1' },
    };
    await rec('polled.insertUnmatched', () => polled.insertUnmatched(id!, [item]));
    const [listed] = await rec('polled.unmatched', () => polled.unmatched(10));
    expect(listed).toMatchObject({
      report_id: id,
      kind: 'claim',
      reference: 'UNKNOWN-77',
      amount: '92.5000',
      status_code: '1',
      payer_claim_control_number: 'VBP1',
      trace_number: item.traceNumber,
    });
  });

  it('MailMessagesRepository', async () => {
    const queued = (ref: string) => ({
      accountId,
      kind: 'claim_notification',
      ref,
      toAddress: 'patient@example.test',
      subject: 'Your claim',
      textBody: 'Sent.',
      htmlBody: '<p>Sent.</p>',
      attachments: null,
      status: 'queued' as const,
    });
    const id = await rec('mail.insert', () => mail.insert(queued('CLM1')));
    expect(await rec('mail.findById', () => mail.findById(id))).toMatchObject({
      subject: 'Your claim',
      status: 'queued',
      attempts: 0,
    });
    await rec('mail.markSent', () => mail.markSent(id, '250 OK'));
    expect(await mail.findById(id)).toMatchObject({
      status: 'sent',
      deliveredTo: '250 OK',
    });
    const failing = await mail.insert(queued('CLM2'));
    await rec('mail.markFailed', () => mail.markFailed(failing, 'mailbox full'));
    expect(await mail.findById(failing)).toMatchObject({
      status: 'failed',
      lastError: 'mailbox full',
    });
  });
});
