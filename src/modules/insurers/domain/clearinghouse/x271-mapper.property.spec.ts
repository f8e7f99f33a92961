import fc from 'fast-check';
import { HEADER_TO_SUBSCRIBER, transaction271 } from '../../../../../test/x12/fixtures';
import { serializePlan } from '../../../../../test/support/serialize-plan';
import { serializePlanJson } from '@/lib/benefits/benefit.serializer';
import { X12ParseError } from '@/lib/x12/x12.errors';
import type { Interchange271 } from '@/lib/x12/x271.types';
import { read271 } from '@/lib/x12/x271.reader';
import { map271 } from './x271-result.mapper';

/**
 * The mapper never throws on a 271 the reader accepts. 2110 loops are drawn from the
 * shapes vision payers send (every EB01 the mapping reads, odd EB06/EB09, procedure codes that
 * map and that do not, HSD, DTP 304/348/292/307, MSG, AAA, REF, LS/LE 2120 with PER), plus some
 * garbage the reader refuses or skips.
 */
const EB = fc
  .tuple(
    fc.constantFrom('1', '6', 'A', 'B', 'C', 'F', 'D', 'I', 'U', 'R', 'X', 'V', 'L'),
    fc.constantFrom('IND', 'FAM', 'CHD', ''),
    fc.constantFrom('30', 'AL', 'AN', 'AM', 'AO', 'CP', 'BR', 'AL^AM', ''),
    fc.constantFrom('', 'VISION PLAN', 'MEDICAL'),
    fc.constantFrom('', '22', '23', '24', '27', '29', '33', '32'),
    fc.constantFrom('', '0', '10', '150', '40.5', '1X'),
    fc.constantFrom('', '0.2', '1'),
    fc.constantFrom('', 'VS', '99', 'DY', 'P6'),
    fc.constantFrom('', '0', '1', '2'),
    fc.constantFrom('', 'Y', 'N', 'W'),
    fc.constantFrom('', 'HC:92015', 'HC:S0620', 'HC:S0505', 'HC:V2020', 'HC:V2750', 'HC:99213'),
  )
  .map(
    ([info, level, types, name, period, amount, percent, qq, qty, network, proc]) =>
      `EB*${info}*${level}*${types}**${name}*${period}*${amount}*${percent}*${qq}*${qty}**${network}*${proc}~`,
  );

const QUALIFIER = fc.constantFrom(
  'HSD*VS*1***34*12~',
  'HSD*FL*1***21*2~',
  'HSD*VS*2***23~',
  'DTP*304*D8*20250612~',
  'DTP*348*D8*20260701~',
  'DTP*292*RD8*20260101-20261231~',
  'DTP*307*RD8*20260315-20260315~',
  'MSG*A MESSAGE~',
  'AAA*N**53*C~',
  'REF*IG*POL1~',
  'LS*2120~NM1*PR*2*EYEMED*****PI*EYEMD~PER*IC**TE*8005551212~LE*2120~',
  'LS*2120~NM1*IL*1*DOE*JANE****MI*X1~LE*2120~',
);

const LOOP = fc
  .tuple(EB, fc.array(QUALIFIER, { maxLength: 3 }))
  .map(([eb, rest]) => [eb, ...rest.flatMap((s) => s.split(/(?<=~)/))]);

const HEAD_SEGMENTS = fc.subarray([
  'REF*1L*GRP-1~',
  'DTP*346*D8*20260101~',
  'DTP*307*RD8*20260315-20260315~',
]);

describe('271 → result: the mapper never throws on a 271 the reader accepts', () => {
  it('maps 1,000 generated 271s, and both serializers agree on every plan', () => {
    let found = 0;
    fc.assert(
      fc.property(
        HEAD_SEGMENTS,
        fc.array(LOOP, { maxLength: 8 }),
        fc.boolean(),
        (head, loops, dependent) => {
          const body = loops.flat();
          const text = transaction271([
            ...HEADER_TO_SUBSCRIBER,
            'NM1*IL*1*DOE*JANE****MI*DV1234567~',
            ...head,
            ...(dependent
              ? ['HL*4*3*23*0~', 'NM1*03*1*DOE*TIMMY~', 'DMG*D8*20150610~', 'INS*N*19~']
              : []),
            ...body,
          ]);
          let answer: Interchange271;
          try {
            answer = read271(text);
          } catch (e) {
            if (e instanceof X12ParseError) return;
            throw e;
          }
          const mapped = map271(answer, { inquiryDate: '2026-03-15', queryDob: '1980-01-15' });
          if (mapped.kind !== 'found') return;
          found += 1;
          for (const plan of mapped.plans) {
            for (const person of plan.persons) {
              expect(serializePlanJson(person.plan)).toBe(
                JSON.stringify(serializePlan(person.plan)),
              );
            }
          }
        },
      ),
      { seed: 30, numRuns: 1000 },
    );
    // Most generated answers must get through the reader, or the property says little.
    expect(found).toBeGreaterThan(500);
  });
});
