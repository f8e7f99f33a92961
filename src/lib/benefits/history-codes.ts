import { benefitCodeForProcedure } from './service-codes';

/**
 * The benefits a practice's own history records (docs/api.md, Next eligible dates: the practice's
 * history): what a staff entry may name, and what a claimed procedure counts as. Each sits where a
 * frequency rule on it or on a benefit above it counts it (`materials.spectacle_lenses` counts
 * its lens types; `exam` counts `exam.routine`).
 */
export const HISTORY_BENEFIT_CODES = [
  'exam.routine',
  'exam.contact_lens_fitting',
  'materials.frames',
  'materials.spectacle_lenses',
  'materials.spectacle_lenses.single_vision',
  'materials.spectacle_lenses.bifocal',
  'materials.spectacle_lenses.trifocal',
  'materials.spectacle_lenses.progressive',
  'materials.contact_lenses',
  'materials.contact_lenses.elective',
  'materials.contact_lenses.medically_necessary',
] as const;
export type HistoryBenefitCode = (typeof HISTORY_BENEFIT_CODES)[number];

/**
 * The benefit a claimed procedure code uses up, or null: 92002–92014, 92015, S0620/S0621 the
 * routine exam; V2020/V2025 frames; V2100–V2499 spectacle lenses (by lens type where the code
 * says it); V2500–V2599 contact lenses. Other codes (fittings, lens options) use up none.
 */
export function historyBenefitOf(code: string): HistoryBenefitCode | null {
  const upper = code.trim().toUpperCase();
  if (upper === '92015' || upper === 'S0620' || upper === 'S0621') return 'exam.routine';
  const match = /^(V?)(\d{4,5})$/.exec(upper);
  if (!match) return null;
  const n = Number(match[2]);
  if (match[1] === '') return n >= 92002 && n <= 92014 ? 'exam.routine' : null;
  if (n === 2020 || n === 2025) return 'materials.frames';
  if (n >= 2500 && n <= 2599) return 'materials.contact_lenses';
  if (n < 2100 || n > 2499) return null;
  const typed = benefitCodeForProcedure(upper);
  return typed !== null && (HISTORY_BENEFIT_CODES as readonly string[]).includes(typed)
    ? (typed as HistoryBenefitCode)
    : 'materials.spectacle_lenses';
}

/** The benefit of a service line: the first of its codes that uses one up. */
export function historyBenefitOfCodes(
  codes: readonly string[],
): { code: string; benefit: HistoryBenefitCode } | null {
  for (const code of codes) {
    const benefit = historyBenefitOf(code);
    if (benefit) return { code: code.trim().toUpperCase(), benefit };
  }
  return null;
}
