import { write837 } from './x837.writer';
import { check837Structure } from '../../../test/x12/x837.structure';
import { VARIANT_ENVELOPE, variantClaim, X837_VARIANTS } from '../../../test/x12/x837.variants';

const claim = variantClaim;
/** The writer's 837P of `c` (x837.spec.ts checks each file the writer makes passes the check). */
const write = (c: Parameters<typeof write837>[0]): string => write837(c, VARIANT_ENVELOPE);

describe('837P structure check (005010X222A1 loop and segment usage)', () => {
  it.each(Object.entries(X837_VARIANTS))('passes the variant: %s', (_name, variant) => {
    const text = write(variant);
    expect(text).toContain('~ST*837*5150*005010X222A1~');
    expect(check837Structure(text, { patientPaid: Number(variant.paidAmount) > 0 })).toEqual([]);
  });

  const edit = (text: string, from: string, to: string) => {
    expect(text).toContain(from);
    return text.replace(from, to);
  };
  // Segment counts are kept right so that only the structure is at fault.
  const resize = (text: string, delta: number) =>
    text.replace(/~SE\*(\d+)\*/, (_, n: string) => `~SE*${Number(n) + delta}*`);

  it('finds a required segment missing (2010AA N3)', () => {
    const text = resize(edit(write(claim()), '~N3*500 W 2ND ST', ''), -1);
    expect(check837Structure(text)).toContainEqual(
      expect.stringMatching(/^2010AA N3 \(Billing provider address\).*required, missing/),
    );
  });

  it("finds 2010BA N3/N4/DMG sent for a dependent's claim (situational: do not send)", () => {
    const text = resize(
      edit(
        write(X837_VARIANTS['dependent patient']),
        '~NM1*PR*',
        '~N3*1 MAIN ST~N4*AUSTIN*TX*78701~DMG*D8*19860412*F~NM1*PR*',
      ),
      3,
    );
    const problems = check837Structure(text);
    expect(problems).toHaveLength(3);
    for (const p of problems)
      expect(p).toMatch(
        /^2010BA (N3|N4|DMG) .*sent, but required when the patient is the subscriber/,
      );
  });

  it('finds AMT*F5 missing when the patient paid, and a 2310B missing for an organisation', () => {
    const text = write(claim());
    expect(check837Structure(text, { patientPaid: true })).toEqual([
      expect.stringMatching(/^2300 AMT\*F5 .*missing: required when the patient has paid/),
    ]);
    const noRendering = resize(
      edit(text, '~NM1*82*1*RUIZ*ANA****XX*1245319599~PRV*PE*PXC*152W00000X', ''),
      -2,
    );
    expect(check837Structure(noRendering)).toEqual([
      expect.stringMatching(
        /^loop 2310B \(Rendering provider\) under 2300.*missing: required when/,
      ),
    ]);
  });

  it('finds a segment out of its loop, the 5-digit ZIP of a billing provider and a bad pointer', () => {
    const text = write(claim());
    expect(check837Structure(edit(text, 'N4*AUSTIN*TX*787011234', 'N4*AUSTIN*TX*78701'))).toEqual([
      expect.stringMatching(/N403 must be the 9-digit ZIP\+4/),
    ]);
    expect(check837Structure(edit(text, '*UN*2***1:2~', '*UN*2***1:3~'))).toEqual([
      expect.stringMatching(/SV107 points past the 2 HI codes/),
    ]);
    const moved = edit(text, '~REF*EI*741234567~HL*2', '~HL*2');
    const misplaced = edit(moved, '~SBR*P*18', '~REF*EI*741234567~SBR*P*18');
    expect(check837Structure(misplaced)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/REF\*EI is not used here by 005010X222A1/),
        expect.stringMatching(/^2010AA REF\*EI .*required, missing/),
      ]),
    );
  });
});
