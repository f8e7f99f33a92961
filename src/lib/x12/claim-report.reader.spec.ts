import { readClaimReport } from './claim-report.reader';
import { parseError, report } from '../../../test/x12/report-files';
import { describeStatus } from './x277ca.reader';
import { describeSegmentError } from './x999.reader';

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
