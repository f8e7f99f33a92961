import { benefitLabel } from '@/lib/benefits';
import type { Estimate } from '../domain/estimate.types';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The API's estimate as the page says it to a person: lines counted from 1, not from 0, and the
 * benefits in words, not codes (the code stays in the cell's title and data attributes).
 * `codes` are the benefit codes a note may name (the plan's, the lines' and groups').
 */
export function estimateForPeople(estimate: Estimate, codes: readonly string[]) {
  const known = [
    ...new Set([
      ...codes,
      ...estimate.lines.flatMap((l) => (l.benefit_code ? [l.benefit_code] : [])),
      ...estimate.groups.map((g) => g.benefit_code),
    ]),
  ].sort((x, y) => y.length - x.length);
  // A code stands alone: not part of a longer code (`exam` in `exam.medical`) or word. Any
  // dotted code counts (the notes also name the codes' mapped benefits, outside the plan).
  const named = new RegExp(
    `(?<![\\w.])(${[...known.map(escape), '[a-z][a-z_]*(?:\\.[a-z][a-z_]*)+'].join('|')})(?![\\w.])`,
    'g',
  );
  const say = (note: string) =>
    note
      .replace(named, (code: string, _c: string, at: number) => {
        const words = benefitLabel(code);
        return at === 0 ? words : words.toLowerCase();
      })
      .replace(
        /\bline ((?:\d+, )*\d+)/g,
        (_m, list: string) =>
          `line ${list
            .split(', ')
            .map((n) => String(Number(n) + 1))
            .join(', ')}`,
      )
      .replace(/ with benefit_code\)/g, ' by choosing it as the line’s benefit)');
  return {
    ...estimate,
    lines: estimate.lines.map((l) => ({ ...l, number: l.index + 1, notes: l.notes.map(say) })),
  };
}
