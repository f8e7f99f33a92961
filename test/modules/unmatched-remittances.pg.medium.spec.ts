import { createHash } from 'node:crypto';
import { UnmatchedRemittancesModule } from '@/modules/claims/reports/unmatched-remittances.module';
import { UnmatchedRemittances } from '@/modules/claims/reports/domain/unmatched-remittances.service';
import { PolledReportsRepository } from '@/modules/claims/reports/store/polled-reports.repository';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The operator's unmatched remittances (claims' reports, for the CLI) booted alone
 * (test/support/module.ts): what a polled 835 paid that no account owns, stored and listed.
 */
describe('unmatched-remittances module, alone', () => {
  let t: ModuleContext;

  beforeAll(async () => {
    t = await bootModule(UnmatchedRemittancesModule);
  });
  afterAll(() => t.close());

  it('boots with nothing else of the application, not even claims', () => {
    expect(t.booted).toEqual(['UnmatchedRemittancesModule']);
  });

  it('lists what no account owns, newest first, without the patient', async () => {
    const x12 = 'ISA*00*...~';
    const [{ id: reportId }] = await t.db.query(
      `INSERT INTO claim_reports (source, content_sha256, type, x12) VALUES ('poller', $1, '835', $2) RETURNING id`,
      [createHash('sha256').update(x12).digest('hex'), x12],
    );
    const item = (reference: string, amount: string) => ({
      kind: 'claim' as const,
      payerId: 'VSP01',
      payerName: 'VSP',
      traceNumber: 'TRN-7781',
      reference,
      amount,
      detail: { status_code: '1', patient: 'GARCIA MARIA' },
    });
    const polled = t.ctx.get(PolledReportsRepository);
    await polled.insertUnmatched(reportId, [item('CLM-GONE-1', '45.5')]);
    await polled.insertUnmatched(reportId, [item('CLM-GONE-2', '12')]);
    const listed = await t.ctx.get(UnmatchedRemittances).list(10);
    expect(listed.map((u) => [u.reference, u.amount, u.status_code, u.payer.name])).toEqual([
      ['CLM-GONE-2', '12.0000', '1', 'VSP'],
      ['CLM-GONE-1', '45.5000', '1', 'VSP'],
    ]);
    expect(JSON.stringify(listed)).not.toContain('GARCIA');
    expect(await t.ctx.get(UnmatchedRemittances).list(1)).toHaveLength(1);
  });
});
