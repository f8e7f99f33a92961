import { readInterchange } from './x12.envelope';
import { writeInterchange } from './x12.writer';
import { ClaimStatusInquiry, write276 } from './x276.writer';
import { read277 } from './x277.reader';

const inquiry: ClaimStatusInquiry = {
  payer: { id: 'VSP01', name: 'VSP Vision Care' },
  receiver: { id: 'VISIONELIG', name: 'Clear Sight Optometry' },
  provider: { npi: '1234567893', organizationName: 'Clear Sight Optometry' },
  subscriber: {
    firstName: 'Maria',
    lastName: 'Gonzalez',
    dob: '1986-04-12',
    sex: 'female',
    memberId: 'VSP1',
  },
  patient: null,
  traceNumber: 'TRACE1',
  claimCode: 'CLM8D3K6TQW',
  payerClaimNumber: null,
  totalCharge: '1401.2500',
  serviceFrom: '2026-11-14',
  serviceTo: '2026-11-15',
};
const envelope = {
  senderId: 'VISIONELIG',
  receiverId: 'CLEARINGHOUSE',
  usage: 'T' as const,
  controlNumber: 42,
  createdAt: new Date('2026-11-20T10:00:00Z'),
};

describe('276 writer and 277 reader (005010X212)', () => {
  it('writes the 276 levels and the claim loop under the subscriber', () => {
    const text = write276(inquiry, envelope);
    const [set] = readInterchange(text).groups[0].transactions;
    expect(set.type).toBe('276');
    expect(set.segments.map((s) => s.id)).toEqual([
      'BHT',
      'HL',
      'NM1',
      'HL',
      'NM1',
      'HL',
      'NM1',
      'HL',
      'DMG',
      'NM1',
      'TRN',
      'REF',
      'AMT',
      'DTP',
    ]);
    expect(text).toContain(
      'HL*4*3*22*0~DMG*D8*19860412*F~NM1*IL*1*GONZALEZ*MARIA****MI*VSP1~TRN*1*TRACE1~REF*EJ*CLM8D3K6TQW~AMT*T3*1401.25~DTP*472*RD8*20261114-20261115~',
    );
  });

  it('puts a dependent patient in its own level, with the claim loop', () => {
    const child = { firstName: 'Lucia', lastName: 'Gonzalez', dob: '2016-02-03', sex: 'female' };
    const text = write276({ ...inquiry, patient: child }, envelope);
    expect(text).toContain(
      'HL*4*3*22*1~NM1*IL*1*GONZALEZ*MARIA****MI*VSP1~HL*5*4*23~DMG*D8*20160203*F~NM1*QC*1*GONZALEZ*LUCIA~TRN*1*TRACE1~',
    );
  });

  it('reads each claim status loop of a 277: trace, STC lines, references', () => {
    const text = writeInterchange({
      ...envelope,
      groups: [
        {
          functionalId: 'HN',
          version: '005010X212',
          controlNumber: '1',
          transactions: [
            {
              type: '277',
              controlNumber: '0001',
              implementationReference: '005010X212',
              segments: [
                ['BHT', '0010', '08', 'T', '20261120', '1200', 'DG'],
                ['HL', '1', '', '20', '1'],
                ['NM1', 'PR', '2', 'VSP', '', '', '', '', 'PI', 'VSP01'],
                ['HL', '4', '1', '22', '0'],
                ['NM1', 'IL', '1', 'GONZALEZ', 'MARIA'],
                ['TRN', '2', 'TRACE1'],
                [
                  'STC',
                  ['F1', '65', 'PR'],
                  '20261120',
                  '',
                  '1401.25',
                  '980.50',
                  '',
                  '',
                  '',
                  '',
                  '',
                  '',
                  'Paid',
                ],
                ['STC', ['A2', '20'], '20261118'],
                ['REF', '1K', 'PAYER9'],
                ['REF', 'EJ', 'CLM8D3K6TQW'],
              ],
            },
          ],
        },
      ],
    });
    expect(read277(text)).toEqual([
      {
        trace: 'TRACE1',
        payerClaimNumber: 'PAYER9',
        patientControlNumber: 'CLM8D3K6TQW',
        statuses: [
          {
            category: 'F1',
            code: '65',
            entity: 'PR',
            date: '2026-11-20',
            totalCharge: '1401.25',
            paymentAmount: '980.50',
            message: 'Paid',
          },
          {
            category: 'A2',
            code: '20',
            entity: '',
            date: '2026-11-18',
            totalCharge: null,
            paymentAmount: null,
            message: '',
          },
        ],
      },
    ]);
  });
});
