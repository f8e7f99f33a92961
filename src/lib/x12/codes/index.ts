import type { Segment } from '../x12.segment';

export { ADJUSTMENT_GROUPS, CARC } from './carc';
export { RARC } from './rarc';
export { CLAIM_STATUS_CATEGORIES, CLAIM_STATUS_CODES, ENTITY_IDENTIFIERS } from './claim-status';
export {
  ACKNOWLEDGMENT_CODES,
  ELEMENT_ERRORS,
  GROUP_SYNTAX_ERRORS,
  INTERCHANGE_NOTES,
  SEGMENT_ERRORS,
  SET_SYNTAX_ERRORS,
} from './acknowledgment';

/** The words of `code` in `table`, or "Unknown code X" (a code the shipped table lacks). */
export function describeCode(table: Readonly<Record<string, string>>, code: string): string {
  return Object.prototype.hasOwnProperty.call(table, code) ? table[code] : `Unknown code ${code}`;
}

/** The codes elements `ns` of `s` carry (empty ones left out), each with its words in `table`. */
export function describedCodes(
  s: Segment,
  ns: readonly number[],
  table: Readonly<Record<string, string>>,
): { code: string; description: string }[] {
  return ns
    .map((n) => s.el(n))
    .filter((c) => c !== '')
    .map((code) => ({ code, description: describeCode(table, code) }));
}
