/** An ISA header (106 characters with its `~`) for the generated reports below. */
export const ISA =
  'ISA*00*          *00*          *ZZ*VISIONPAYER    *ZZ*EYEPRACTICE    *260201*0900*^*00501*000000301*0*P*:~';

/**
 * A balanced 835 of exactly `segments` segments (ISA to IEA), as large as a busy payer's
 * month: one payment, then claims of five segments each (CLP, the patient's NM1, DTM, SVC, DTM)
 * with long names, so the file runs near 48 bytes a segment. No claim matches any account's
 * (CLP01 `BIG-...`). `trace` is TRN02: each trace makes a different file.
 */
export function big835(segments: number, trace: string): string {
  const claims = Math.floor((segments - 18) / 5);
  const padding = segments - 18 - claims * 5;
  const head = [
    'GS*HP*VISIONPAYER*EYEPRACTICE*20260201*0900*301*X*005010X221A1',
    'ST*835*0001',
    `BPR*I*${claims * 100}*C*ACH*CCP*01*999999992*DA*123456*1512345678**01*031302955*DA*98765*20260201`,
    `TRN*1*${trace}*1512345678`,
    ...Array.from({ length: padding }, () => 'REF*EV*EYEPRACTICE'),
    'DTM*405*20260201',
    'N1*PR*VISION BENEFITS PLAN',
    'N3*100 PAYER WAY',
    'N4*COLUMBUS*OH*432151234',
    'PER*BL*PROVIDER SERVICES*TE*8005551212',
    'N1*PE*BRIGHT EYES OPTOMETRY*XX*1234567893',
    'N3*12 MAIN ST',
    'N4*SPRINGFIELD*IL*627011234',
    'REF*TJ*123456789',
    'LX*1',
  ];
  const body: string[] = [];
  for (let i = 0; i < claims; i++) {
    const n = String(i).padStart(7, '0');
    body.push(
      `CLP*BIG-${n}*1*100*100*0*12*VBP2026020100000000000000${n}*11*1`,
      `NM1*QC*1*PATIENTLAST${n}XXXXXXXXXXXXXXXXXXXXXXXXX*FIRSTNAME${n}XX*MIDDLE***MI*VSP${n}00`,
      'DTM*232*20260105',
      'SVC*HC:92014:LT*100*100**1',
      'DTM*472*20260105',
    );
  }
  // ST to SE inclusive.
  const set = head.length - 1 + body.length + 1;
  return (
    [ISA.slice(0, -1), ...head, ...body, `SE*${set}*0001`, 'GE*1*301', 'IEA*1*000000301'].join(
      '~',
    ) + '~'
  );
}
