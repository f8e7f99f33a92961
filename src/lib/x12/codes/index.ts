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
