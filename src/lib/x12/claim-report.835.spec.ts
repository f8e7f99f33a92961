import { readClaimReport } from './claim-report.reader';
import { parseError, report } from '../../../test/x12/report-files';

describe('835 remittance reader', () => {
  /** The one remittance of 835-several-claims.x12 (four claims, line and claim CAS, a PLB). */
  const several = () => readClaimReport(report('835-several-claims.x12')).remittances[0];

  it('reads the payment, the payer and every claim of one 835', () => {
    const r = readClaimReport(report('835-several-claims.x12'));
    expect(r.type).toBe('835');
    expect(r.warnings).toEqual([]);
    const [remittance] = r.remittances;
    expect(remittance).toMatchObject({
      handling: 'I',
      paymentAmount: '262.5',
      paymentMethod: 'ACH',
      paidAt: '2026-01-15',
      traceNumber: 'EFT20260115A',
      payerId: '1512345678',
      payerName: 'VISION BENEFITS PLAN',
      payeeNpi: '1234567893',
    });
    expect(remittance.claims.map((c) => [c.patientControlNumber, c.statusCode, c.paid])).toEqual([
      ['CLM-1001', '1', '180'],
      ['CLM-1002', '1', '0'],
      ['CLM-1003', '4', '0'],
      ['UNKNOWN-77', '1', '92.5'],
    ]);
  });

  it('reads line-level CAS with CARC words, units, allowed amounts and RARC remarks', () => {
    const claim = several().claims[0];
    expect(claim).toMatchObject({
      charge: '250',
      patientResponsibility: '40',
      payerClaimControlNumber: 'VBP2026011500001',
      patientName: 'JANE DOE',
      serviceFrom: '2026-01-05',
      adjustments: [],
    });
    const [exam, refraction] = claim.serviceLines;
    expect(exam).toMatchObject({
      codes: ['92014'],
      charge: '150',
      paid: '110',
      allowed: '135',
      serviceDate: '2026-01-05',
      remarks: [
        {
          code: 'N130',
          description:
            'Consult plan benefit documents/guidelines for information about restrictions for this service.',
        },
      ],
    });
    expect(exam.adjustments.map((a) => [a.group, a.reasonCode, a.amount, a.description])).toEqual([
      [
        'CO',
        '45',
        '15',
        'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
      ],
      ['PR', '3', '15', 'Co-payment Amount'],
      ['PR', '2', '10', 'Coinsurance Amount'],
    ]);
    expect(refraction.adjustments.map((a) => `${a.group}-${a.reasonCode}`)).toEqual([
      'PR-1',
      'OA-23',
    ]);
  });

  it('reads claim-level CAS, an unknown CARC in words, MOA remarks and a $0-paid claim', () => {
    const remittance = several();
    const zero = remittance.claims[1];
    expect(zero).toMatchObject({ statusCode: '1', paid: '0', patientResponsibility: '120' });
    const denied = remittance.claims[2];
    expect(denied.adjustments).toEqual([
      expect.objectContaining({
        group: 'CO',
        reasonCode: '999',
        amount: '95',
        description: 'Unknown code 999',
      }),
    ]);
    expect(denied.remarks.map((m) => m.code)).toEqual(['MA130']);
    expect(denied.serviceLines).toEqual([]);
    expect(remittance.claims[3].adjustments[0].amount).toBe('-12.5');
  });

  it('reads a PLB provider adjustment', () => {
    const remittance = several();
    expect(remittance.providerAdjustments).toEqual([
      {
        provider: '1234567893',
        fiscalPeriodEnd: '2026-12-31',
        reason: 'WO',
        reference: 'VBP2025OVERPAY',
        amount: '10',
      },
    ]);
  });

  it('reads a reversal (CLP02 22, negative amounts) followed by the corrected payment', () => {
    const [remittance] = readClaimReport(report('835-reversal-corrected.x12')).remittances;
    expect(
      remittance.claims.map((c) => [c.statusCode, c.charge, c.paid, c.patientResponsibility]),
    ).toEqual([
      ['22', '-250', '-180', '-40'],
      ['1', '250', '200', '40'],
    ]);
    expect(remittance.claims[0].adjustments.map((a) => a.amount)).toEqual([
      '-15',
      '-25',
      '-15',
      '-15',
    ]);
    expect(remittance.paymentAmount).toBe('20');
    expect(remittance.warnings).toEqual([]);
  });

  it('reads two ST sets of one interchange as two remittances (a check and a $0 notice)', () => {
    const r = readClaimReport(report('835-two-sets.x12'));
    expect(r.remittances.map((m) => [m.traceNumber, m.paymentMethod, m.paymentAmount])).toEqual([
      ['CHK70001', 'CHK', '75'],
      ['NOPAY70002', 'NON', '0'],
    ]);
    expect(r.remittances[1].claims[0]).toMatchObject({
      patientControlNumber: 'CLM-2002',
      paid: '0',
    });
  });

  it('keeps a remittance that does not balance, with a warning naming the segment', () => {
    const text = report('835-two-sets.x12').replace(
      'CLP*CLM-2001*1*95*75*',
      'CLP*CLM-2001*1*95*70*',
    );
    const r = readClaimReport(text);
    expect(r.warnings).toEqual([
      'X12 segment 13 (CLP): charge 95 less adjustments is 75.0000, CLP04 paid is 70',
      "X12 BPR02 is 75, the claims' payments less provider adjustments are 70.0000",
    ]);
  });

  it('refuses an unknown claim status code, naming the segment and element', () => {
    const text = report('835-two-sets.x12').replace('CLP*CLM-2001*1*', 'CLP*CLM-2001*9*');
    expect(parseError(text)).toBe(
      'X12 segment 13 (CLP): CLP02 "9" is not a claim status code (expected 1, 2, 3, 4, 19, 20, 21, 22, 23, 25)',
    );
  });

  it('refuses a CAS amount that is not a number and a CAS before any CLP', () => {
    expect(parseError(report('835-two-sets.x12').replace('CAS*PR*3*20~', 'CAS*PR*3*2O~'))).toBe(
      'X12 segment 14 (CAS): CAS03 "2O" is not a number',
    );
    expect(
      parseError(
        report('835-two-sets.x12').replace(
          'LX*1~\nCLP*CLM-2001',
          'LX*1~\nCAS*CO*45*1~\nCLP*CLM-2001',
        ),
      ),
    ).toBe('X12 segment 13 (CAS): CAS before any CLP: an adjustment belongs to a claim or a line');
  });
});
