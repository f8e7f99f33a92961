import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readClaimReport } from './claim-report.reader';
import { X12ParseError } from './x12.errors';
import { describeStatus } from './x277ca.reader';
import { describeSegmentError } from './x999.reader';

/** The files of test/x12/reports, each validated by pyx12 (claim-report.pyx12.spec.ts). */
const report = (name: string) =>
  readFileSync(resolve(__dirname, '../../../test/x12/reports', name), 'utf8');

function parseError(text: string): string {
  try {
    readClaimReport(text);
  } catch (e) {
    expect(e).toBeInstanceOf(X12ParseError);
    return (e as Error).message;
  }
  throw new Error('expected an X12ParseError');
}

describe('835 remittance reader', () => {
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
    const [remittance] = readClaimReport(report('835-several-claims.x12')).remittances;
    const claim = remittance.claims[0];
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
    const [remittance] = readClaimReport(report('835-several-claims.x12')).remittances;
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
    const [remittance] = readClaimReport(report('835-several-claims.x12')).remittances;
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

describe('999 and TA1 reader', () => {
  it('reads IK3/IK4 segment and element errors with their meanings', () => {
    const r = readClaimReport(report('999-rejected.x12'));
    expect(r.type).toBe('999');
    const [group] = r.groupAcknowledgments;
    expect(group).toMatchObject({
      functionalId: 'HC',
      groupControlNumber: '1047',
      status: { code: 'R', description: 'Rejected' },
      included: 1,
      received: 1,
      accepted: 0,
    });
    const [set] = group.sets;
    expect(set).toMatchObject({
      setType: '837',
      setControlNumber: '1047',
      status: { code: 'R', description: 'Rejected' },
      syntaxErrors: [{ code: '5', description: 'One or More Segments in Error' }],
    });
    expect(set.segmentErrors.map(describeSegmentError)).toEqual([
      'NM1 at segment 8 (loop 2010): Segment Has Data Element Errors (8); element NM109: Invalid Code Value (7) in "12345"',
      'DTP at segment 21 (loop 2400): Segment Has Data Element Errors (8); element DTP03: Invalid Date (8) in "2026013"',
    ]);
    expect(set.segmentErrors[0].context).toEqual(['CLM01:CLM-3001']);
  });

  it('reads an accepted 999', () => {
    const [group] = readClaimReport(report('999-accepted.x12')).groupAcknowledgments;
    expect(group.status.code).toBe('A');
    expect(group.sets[0]).toMatchObject({ setControlNumber: '1048', segmentErrors: [] });
  });

  it('reads a TA1 rejection between ISA and GS, and the 999 after it', () => {
    const r = readClaimReport(report('ta1-rejected.x12'));
    expect(r.interchangeAcknowledgments).toEqual([
      {
        controlNumber: '000001049',
        status: { code: 'R', description: 'Rejected' },
        note: { code: '006', description: 'Invalid Interchange Sender ID' },
      },
    ]);
    expect(r.type).toBe('999');
    expect(r.groupAcknowledgments[0].sets[0].setControlNumber).toBe('1052');
  });

  it('reads a TA1 alone as a TA1 report', () => {
    const text = report('ta1-rejected.x12').split('GS*')[0] + 'IEA*0*000000303~\n';
    const r = readClaimReport(text);
    expect(r.type).toBe('TA1');
    expect(r.interchangeAcknowledgments[0].status.code).toBe('R');
  });

  it('refuses an IK4 outside an IK3 loop, naming the segment', () => {
    const text = report('999-rejected.x12').replace(
      /IK3\*NM1\*8\*2010\*8~\nCTX\*CLM01:CLM-3001~\n/,
      '',
    );
    expect(parseError(text)).toContain(
      'X12 segment 6 (IK4): IK4 outside an IK3 loop: an element error needs its segment',
    );
  });
});

describe('277CA reader', () => {
  it('reads an accepted claim by its patient control number', () => {
    const r = readClaimReport(report('277ca-accepted.x12'));
    expect(r.type).toBe('277');
    const [ack] = r.claimAcknowledgments;
    expect(ack.batchStatuses.map((s) => s.reasons[0].category)).toEqual(['A1', 'A1']);
    expect(ack.claims).toEqual([
      expect.objectContaining({
        patientControlNumber: 'CLM-1001',
        payerClaimNumber: 'VBP2026011300001',
        outcome: 'accepted',
      }),
    ]);
  });

  it('reads a rejected claim with every status, entity code and their words', () => {
    const [ack] = readClaimReport(report('277ca-rejected.x12')).claimAcknowledgments;
    const [claim] = ack.claims;
    expect(claim.outcome).toBe('rejected');
    expect(claim.statuses.map(describeStatus)).toEqual([
      "A7 Acknowledgement/Rejected for Invalid Information - The claim/encounter has invalid information as specified in the Status details and has been rejected.; 562 Entity's National Provider Identifier (NPI).; entity 85 Billing Provider",
      "A7 Acknowledgement/Rejected for Invalid Information - The claim/encounter has invalid information as specified in the Status details and has been rejected.; 33 Subscriber and subscriber id not found.; entity IL Insured or Subscriber / A7 Acknowledgement/Rejected for Invalid Information - The claim/encounter has invalid information as specified in the Status details and has been rejected.; 164 Entity's contract/member number.; entity IL Insured or Subscriber",
    ]);
    expect(claim.statuses[0]).toMatchObject({ date: '2026-01-13', action: 'U', amount: '95' });
  });

  it('refuses a status without a category, naming the segment', () => {
    const text = report('277ca-accepted.x12').replace('STC*A2:20:PR', 'STC*:20:PR');
    expect(parseError(text)).toBe(
      'X12 segment 25 (STC): STC01-1 "" is not a claim status category code',
    );
  });
});

describe('report envelope', () => {
  it('reads a report whose SE count and control numbers slipped, with warnings', () => {
    const text = report('999-accepted.x12')
      .replace('SE*6*0001~', 'SE*7*0002~')
      .replace('IEA*1*000000302~', 'IEA*1*000000399~');
    const r = readClaimReport(text);
    expect(r.groupAcknowledgments[0].status.code).toBe('A');
    expect(r.warnings).toEqual([
      'X12 segment 8 (SE): SE01 says "7" segments from ST to SE, there are 6',
      'X12 segment 8 (SE): SE02 is "0002", ST02 is "0001"',
      'X12 segment 10 (IEA): IEA02 is "000000399", ISA13 is "000000302"',
    ]);
  });

  it('refuses text that is not X12 and an ST without SE', () => {
    expect(parseError('hello, this is not a remittance')).toBe(
      'X12: an interchange starts with ISA, this text starts with "hello, thi"',
    );
    const text = report('999-accepted.x12').replace('SE*6*0001~\n', '');
    expect(parseError(text)).toBe(
      'X12 segment 8 (GE): GE inside the transaction set of segment 3 (ST) (ST02 0001), which has no SE yet',
    );
  });

  it('refuses a report that is not a 999, 277CA or 835', () => {
    const text = report('999-accepted.x12').replace('ST*999*0001', 'ST*837*0001');
    expect(parseError(text)).toBe(
      'X12 segment 3 (ST): transaction set 837: a claim report is a 999, a 277CA or an 835',
    );
  });
});
