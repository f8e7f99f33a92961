/**
 * 271 interchanges written by hand from the 005010X279A1 segment definitions, for the reader,
 * mapper and clearinghouse tests and the fake clearinghouse. Each SE01 is counted by hand; the
 * trace (TRN02) is a parameter so a fake clearinghouse can echo the 270's trace.
 */

export interface Fixture271Options {
  /** TRN02 of the 270 being answered. */
  trace?: string;
  /** Element, repetition, component and segment separators ('*', '^', ':', '~' when not given). */
  separators?: { element: string; repetition: string; component: string; segment: string };
  /** Text after each segment terminator ('' or '\n' or '\r\n'). */
  newline?: string;
}

const ISA =
  'ISA*00*          *00*          *ZZ*CLEARINGHOUSE  *ZZ*VISIONELIG     *260315*1230*^*00501*000000101*0*T*:~';

/** Wraps the ST..SE segments in ISA/GS ... GE/IEA and applies the separators. */
export function interchange271(segments: string[], options: Fixture271Options = {}): string {
  const all = [
    ISA,
    'GS*HB*CLEARINGHOUSE*VISIONELIG*20260315*1230*101*X*005010X279A1~',
    ...segments.map((s) => s.replaceAll('{trace}', options.trace ?? 'TRACE0001')),
    'GE*1*101~',
    'IEA*1*000000101~',
  ];
  const text = all.join(options.newline ?? '');
  const sep = options.separators;
  if (!sep) return text + (options.newline ?? '');
  const map: Record<string, string> = {
    '*': sep.element,
    '^': sep.repetition,
    ':': sep.component,
    '~': sep.segment,
  };
  return [...text].map((c) => map[c] ?? c).join('') + (options.newline ?? '');
}

/**
 * Jane Doe, Davis Vision "VISION CHOICE PLAN", active 2026, with her son Timmy as a dependent:
 * several EB lines per service type (in- and out-of-network copays, coinsurance, allowances),
 * HSD frequencies, MSG comments, a procedure-coded line with LS/LE, RD8 ranges, quantity used.
 */
export const FOUND_SEGMENTS = [
  'ST*271*0001*005010X279A1~',
  'BHT*0022*11*{trace}*20260315*1230~',
  'HL*1**20*1~',
  'NM1*PR*2*DAVIS VISION*****PI*QKZWY~',
  'HL*2*1*21*1~',
  'NM1*1P*2*BRIGHT EYES OPTOMETRY*****XX*1234567893~',
  'HL*3*2*22*1~',
  'TRN*2*{trace}*9VISIONELG~',
  'TRN*1*PAYER-77*1999999999~',
  'NM1*IL*1*DOE*JANE*Q***MI*DV1234567~',
  'REF*6P*G-4455*ACME MANUFACTURING~',
  'REF*SY*123456789~',
  'N3*100 MAIN STREET*APT 4~',
  'N4*AUSTIN*TX*787010000~',
  'DMG*D8*19800115*F~',
  'INS*Y*18*001*25~',
  'DTP*346*D8*20260101~',
  'DTP*347*D8*20261231~',
  'EB*1*FAM*AL*VIS*VISION CHOICE PLAN~',
  'EB*B*IND*30***27*5~',
  'EB*C*IND*30***23*50*****Y~',
  'EB*B*IND*AN***27*10*****Y~',
  'MSG*COPAY APPLIES PER VISIT~',
  'EB*F*IND*AN***27*45*****N~',
  'EB*F*IND*AN******VS*1**W~',
  'HSD*VS*1***34*12~',
  'EB*A*IND*AN*****0.2****N~',
  'EB*F*IND*AM***23*150*****Y~',
  'HSD*FL*1***34*24~',
  'MSG*ALLOWANCE TOWARD FRAME RETAIL PRICE~',
  'EB*F*IND*AM***23*70*****N~',
  'EB*B*IND*AO***27*25*****Y~',
  'EB*F*IND*AO******99*1**Y~',
  'EB*F*IND*AO***23*30*****N*HC:V2100~',
  'EB*F*IND*AO***23*50*****N*HC:V2200~',
  'EB*F*IND*AO***23*65*****N*HC:V2300~',
  'EB*F*IND****23*150*****Y*HC:V2500~',
  'DTP*292*RD8*20260101-20261231~',
  'EB*B*IND*CP***27*20*****Y~',
  'EB*B*IND****27*40****Y*Y*HC:92310~',
  'LS*2120~',
  'NM1*P3*1*SMITH*ALAN****XX*1234567893~',
  'LE*2120~',
  'HL*4*3*23*0~',
  'TRN*2*{trace}*9VISIONELG~',
  'NM1*03*1*DOE*TIMMY~',
  'N3*100 MAIN STREET~',
  'N4*AUSTIN*TX*78701~',
  'DMG*D8*20150610*M~',
  'INS*N*19~',
  'DTP*291*RD8*20260101-20261231~',
  'EB*1*IND*AL**VISION CHOICE PLAN~',
  'EB*B*IND*AN***27*0*****Y~',
  'MSG*NO EXAM COPAY UNDER AGE 19~',
  'EB*F*IND*AN******VS*1**W~',
  'HSD*VS*1***23~',
  'SE*57*0001~',
];

export function found271(options: Fixture271Options = {}): string {
  return interchange271(FOUND_SEGMENTS, options);
}

const HEAD = [
  'BHT*0022*11*{trace}*20260315*1230~',
  'HL*1**20*1~',
  'NM1*PR*2*DAVIS VISION*****PI*QKZWY~',
];
const RECEIVER = ['HL*2*1*21*1~', 'NM1*1P*2*BRIGHT EYES OPTOMETRY*****XX*1234567893~'];
const SUBSCRIBER = ['HL*3*2*22*0~', 'TRN*2*{trace}*9VISIONELG~', 'NM1*IL*1*DOE*JANE~'];

/** A 271 whose only answer is an AAA in 2100A (payer), 2100B (provider) or 2100C (subscriber). */
export function aaa271(
  loop: '2100A' | '2100B' | '2100C',
  reason: string,
  followUp: string,
  options: Fixture271Options = {},
): string {
  const aaa = `AAA*${reason === '42' || reason === '80' ? 'Y' : 'N'}**${reason}*${followUp}~`;
  const body =
    loop === '2100A'
      ? [...HEAD, aaa]
      : loop === '2100B'
        ? [...HEAD, ...RECEIVER.map((s) => s.replace('*21*1~', '*21*0~')), aaa]
        : [...HEAD, ...RECEIVER, ...SUBSCRIBER, aaa, 'DMG*D8*19800115~'];
  const segments = ['ST*271*0001*005010X279A1~', ...body];
  segments.push(`SE*${segments.length + 1}*0001~`);
  return interchange271(segments, options);
}

/** A subscriber whose coverage ended: EB*6 with an RD8 eligibility range and nothing else. */
export function inactive271(options: Fixture271Options = {}): string {
  return interchange271(
    [
      'ST*271*0001*005010X279A1~',
      ...HEAD,
      ...RECEIVER,
      ...SUBSCRIBER.map((s) =>
        s.replace('NM1*IL*1*DOE*JANE~', 'NM1*IL*1*DOE*JANE****MI*DV1234567~'),
      ),
      'DTP*307*RD8*20250101-20251231~',
      'EB*6*IND*30~',
      'SE*12*0001~',
    ],
    options,
  );
}

/** ST + the given segments + SE with its count, for small purpose-built 271s. */
export function transaction271(body: string[], options: Fixture271Options = {}): string {
  const segments = ['ST*271*0001*005010X279A1~', ...body];
  segments.push(`SE*${segments.length + 1}*0001~`);
  return interchange271(segments, options);
}

/** BHT, payer, provider and the subscriber HL with its echoed trace, ready for a 2100C. */
export const HEADER_TO_SUBSCRIBER = [
  ...HEAD,
  ...RECEIVER,
  'HL*3*2*22*1~',
  'TRN*2*{trace}*9VISIONELG~',
];

/** A 271 for Jane Doe (born 1980-01-15) with the given 2100C/2110C segments after her NM1 and DMG. */
export function jane271(segments: string[]): string {
  return transaction271([
    ...HEADER_TO_SUBSCRIBER,
    'NM1*IL*1*DOE*JANE****MI*DV1234567~',
    'DMG*D8*19800115*F~',
    ...segments,
  ]);
}

/**
 * The answer to a 270 that asked about a dependent (docs/api.md, Real insurers), as the guide shapes it: the
 * subscriber in 2000C without a trace or benefits, the patient (Timmy, a child sharing Jane's
 * member id) in 2000D with the echoed TRN, INS, the plan dates and the benefit lines; one 2110D
 * line answered with AAA 53.
 */
export function dependent271(options: Fixture271Options = {}): string {
  return transaction271(
    [
      ...HEAD,
      ...RECEIVER,
      'HL*3*2*22*1~',
      'NM1*IL*1*DOE*JANE****MI*DV1234567~',
      'REF*1L*GRP-778~',
      'HL*4*3*23*0~',
      'TRN*2*{trace}*9VISIONELG~',
      'NM1*03*1*DOE*TIMMY~',
      'DMG*D8*20150610*M~',
      'INS*N*19~',
      'DTP*346*D8*20260101~',
      'DTP*307*RD8*20260315-20260315~',
      'EB*1*CHD*30^AL*VIS*KIDS VISION PLAN~',
      'EB*B*IND*AL***27*0*****Y*HC:S0620~',
      'EB*F*IND*AM***23*120*****Y~',
      'EB*F*IND*AM***24*120*****Y~',
      'EB*1*IND*AO~',
      'AAA*N**53*C~',
    ],
    options,
  );
}
