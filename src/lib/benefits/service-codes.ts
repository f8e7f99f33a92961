/**
 * Service codes → benefit codes: the one table (docs/api.md, Real insurers and Estimates) that both the X12 271 mapper
 * and the reimbursement estimates use. A CPT/HCPCS procedure code or an X12 service type code
 * (EB03 / EQ01) names the benefit of the V2 tree it falls under; `null` means "not a vision
 * benefit we map" (an estimate then reimburses 0 with a note; a 271 line is left out).
 */

/** X12 service type codes (005010 code list, EB03) that carry vision benefits. */
const SERVICE_TYPES: Readonly<Record<string, string | null>> = {
  AL: null, // vision (optometry): the plan root, no item of its own
  '30': null, // health benefit plan coverage: the plan root
  AN: 'exam.routine',
  AM: 'materials.frames',
  AO: 'materials.spectacle_lenses',
  CP: 'materials',
};

/** Whether a service type code applies to the plan root (AL, 30) rather than one item. */
export function isPlanLevelServiceType(code: string): boolean {
  return code === 'AL' || code === '30';
}

/** The benefit code of an X12 service type, or null when it is plan-level or unknown. */
export function benefitCodeForServiceType(code: string): string | null {
  return SERVICE_TYPES[code.trim().toUpperCase()] ?? null;
}

interface Range {
  from: number;
  to: number;
  letter: '' | 'V';
  benefit: string;
}

/**
 * Ordered: the first range containing a code wins, so narrow ranges (a lens type, a lens option)
 * stand before the wider family they belong to.
 */
const PROCEDURE_RANGES: readonly Range[] = [
  // Comprehensive and intermediate eye exams (new and established patients).
  { letter: '', from: 92002, to: 92014, benefit: 'exam.routine' },
  // Contact-lens fitting and evaluation.
  { letter: '', from: 92310, to: 92317, benefit: 'exam.contact_lens_fitting' },
  // Frames (V2020 standard, V2025 deluxe).
  { letter: 'V', from: 2020, to: 2025, benefit: 'materials.frames' },
  // Spectacle lenses by type.
  { letter: 'V', from: 2100, to: 2199, benefit: 'materials.spectacle_lenses.single_vision' },
  { letter: 'V', from: 2200, to: 2299, benefit: 'materials.spectacle_lenses.bifocal' },
  { letter: 'V', from: 2300, to: 2399, benefit: 'materials.spectacle_lenses.trifocal' },
  { letter: 'V', from: 2781, to: 2781, benefit: 'materials.spectacle_lenses.progressive' },
  // Any other spectacle-lens code (V2400–V2499).
  { letter: 'V', from: 2400, to: 2499, benefit: 'materials.spectacle_lenses' },
  // Lens options (add-ons to a pair of lenses). They name no lens type: an item such as
  // `materials.spectacle_lenses.options.anti_reflective` stands for the option of whichever lens it
  // goes with (an estimate looks for it under the lens type of the estimate's lens line, e.g.
  // `materials.spectacle_lenses.single_vision.options.anti_reflective`, then falls back upwards).
  { letter: 'V', from: 2744, to: 2744, benefit: 'materials.spectacle_lenses.options.photochromic' },
  {
    letter: 'V',
    from: 2750,
    to: 2750,
    benefit: 'materials.spectacle_lenses.options.anti_reflective',
  },
  {
    letter: 'V',
    from: 2784,
    to: 2784,
    benefit: 'materials.spectacle_lenses.options.polycarbonate',
  },
  // Other lens add-ons (tints, coatings, prism, oversize, high index, ...), V2781 aside.
  { letter: 'V', from: 2700, to: 2799, benefit: 'materials.spectacle_lenses.options' },
  // Contact lenses.
  { letter: 'V', from: 2500, to: 2599, benefit: 'materials.contact_lenses' },
];

/** The benefit code of a CPT/HCPCS procedure code (`92014`, `V2100`), or null when unmapped. */
export function benefitCodeForProcedure(code: string): string | null {
  const match = /^([V]?)(\d{4,5})$/.exec(code.trim().toUpperCase());
  if (!match) return null;
  const letter = match[1] as '' | 'V';
  const number = Number(match[2]);
  const range = PROCEDURE_RANGES.find(
    (r) => r.letter === letter && number >= r.from && number <= r.to,
  );
  return range?.benefit ?? null;
}

/**
 * How a benefit of the V2 tree is named by a code system other doors speak (docs/api.md, FHIR
 * R4): by an X12 service type (EB03) when one names it, else by its CPT/HCPCS procedure code when
 * the benefit is known by one. The reverse of the tables above, for the benefits they name.
 */
export type BenefitServiceCode =
  | { kind: 'service_type'; code: string }
  | { kind: 'procedure'; system: 'cpt' | 'hcpcs'; code: string };

/** Benefits known by one procedure code rather than a service type (narrowest first). */
const PROCEDURE_OF_BENEFIT: readonly [string, BenefitServiceCode][] = [
  ['exam.contact_lens_fitting', { kind: 'procedure', system: 'cpt', code: '92310' }],
  ['materials.spectacle_lenses.progressive', { kind: 'procedure', system: 'hcpcs', code: 'V2781' }],
  [
    'materials.spectacle_lenses.options.anti_reflective',
    { kind: 'procedure', system: 'hcpcs', code: 'V2750' },
  ],
  [
    'materials.spectacle_lenses.options.photochromic',
    { kind: 'procedure', system: 'hcpcs', code: 'V2744' },
  ],
  [
    'materials.spectacle_lenses.options.polycarbonate',
    { kind: 'procedure', system: 'hcpcs', code: 'V2784' },
  ],
];

/** Service types by benefit family (a benefit and everything under it). */
const SERVICE_TYPE_OF_FAMILY: readonly [string, string][] = [
  ['exam', 'AN'],
  ['materials.frames', 'AM'],
  ['materials.spectacle_lenses', 'AO'],
];

const within = (code: string, family: string) => code === family || code.startsWith(`${family}.`);

/**
 * The service type or procedure code of a benefit code: AN (routine exam), AM (frames), AO
 * (lenses), a procedure code where one names the benefit itself, else F6 (vision coverage).
 */
export function serviceCodeForBenefit(benefitCode: string): BenefitServiceCode {
  for (const [family, code] of PROCEDURE_OF_BENEFIT) if (within(benefitCode, family)) return code;
  for (const [family, code] of SERVICE_TYPE_OF_FAMILY)
    if (within(benefitCode, family)) return { kind: 'service_type', code };
  return { kind: 'service_type', code: 'F6' };
}
