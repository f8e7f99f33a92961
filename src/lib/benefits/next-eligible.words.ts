import { label } from './benefit-table';
import type { Frequency } from './next-eligible.types';

/**
 * The sentences of a next-eligible explanation (docs/api.md, Next eligible dates): benefit words
 * and dates only, never a name or an identifier of the patient.
 */

/** A benefit in words, as it reads inside a sentence ("contact lenses", "LASIK"). */
function benefitWords(code: string): string {
  const words = label(code);
  return /^[A-Z][a-z]/.test(words) ? words[0].toLowerCase() + words.slice(1) : words;
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** "a, b and c". */
function listWords(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The rule in words: "Frames: once every 24 months, counted from the last service." */
export function ruleSentence(
  code: string,
  f: Frequency,
  years: number,
  planBegin: string | null,
): string {
  const name = capital(benefitWords(code));
  const n = f.count;
  const months = f.period.months ?? 12;
  switch (f.period.kind) {
    case 'rolling':
      return n === 1
        ? `${name}: once every ${plural(months, 'month', 'months')}, counted from the last service.`
        : `${name}: ${times(n)} in any ${plural(months, 'month', 'months')}.`;
    case 'calendar_year':
      return years === 1
        ? `${name}: ${times(n)} per calendar year; the count starts again each 1 January.`
        : `${name}: ${times(n)} every ${years} calendar years, counted from 1 January of the ` +
            'year of a service.';
    case 'plan_year': {
      const begins = planBegin
        ? `plan years begin on the anniversary of the plan's begin date, ${planBegin}`
        : "plan years begin on the anniversary of the plan's begin date";
      return years === 1
        ? `${name}: ${times(n)} per plan year; ${begins}.`
        : `${name}: ${times(n)} every ${years} plan years, counted from the start of the plan ` +
            `year of a service; ${begins}.`;
    }
  }
}

export function sharedSentence(roots: readonly string[]): string {
  return `Services of ${listWords(roots.map(benefitWords))} count against it too (shared benefits).`;
}

/** Why a counted service stops counting on `until`, in the words of its period. */
export function untilWords(f: Frequency, years: number): string {
  switch (f.period.kind) {
    case 'rolling':
      return `${plural(f.period.months ?? 0, 'month', 'months')} after it`;
    case 'calendar_year':
      return years === 1
        ? 'when the next calendar year begins'
        : `${years} calendar years after 1 January of its year`;
    case 'plan_year':
      return years === 1
        ? 'when the next plan year begins'
        : `${years} plan years after the start of its plan year`;
  }
}

/** " (contact lenses)" after a date, when the service was of another benefit than the rule's. */
export function whose(code: string, ruleCode: string): string {
  return code === ruleCode ? '' : ` (${benefitWords(code)})`;
}

export const WORDS = {
  noFrequency: 'The plan states no frequency for this benefit, so the date cannot be computed.',
  badCount: 'A frequency allows a whole number of services, at least 1.',
  noMonths: 'A rolling period needs its length in months, so the date cannot be computed.',
  notWholeYears: (kind: string) =>
    `A ${kind === 'plan_year' ? 'plan-year' : 'calendar-year'} period lasts whole years ` +
    '(12, 24, … months), so the date cannot be computed.',
  noPlanBegin: "A plan-year period needs the plan's begin date, so the date cannot be computed.",
  noService: (asOf: string) =>
    `No service that counts against it is on record, so it is available on ${asOf}.`,
  fewer: (k: number, n: number, last: string) =>
    `${plural(k, 'service that counts is', 'services that count are')} on record, fewer than ` +
    `the ${n} allowed, so another is allowed from the last one, on ${last}.`,
  lastCounted: (date: string, who: string, until: string, why: string) =>
    `The last service that counts was on ${date}${who}; a new one is allowed from ${until}, ${why}.`,
  oldestCounted: (n: number, date: string, who: string, until: string, why: string) =>
    `The oldest of the ${n} most recent services that count was on ${date}${who}; it stops ` +
    `counting on ${until}, ${why}.`,
  fewerInPeriod: (n: number, last: string) =>
    `Fewer than ${n} services that count fall in the period of the last one, so another is ` +
    `allowed from it, on ${last}.`,
  since: (since: string, asOf: string) =>
    `It has been available since ${since}, so it is available on ${asOf}.`,
  planBegins: (begin: string) => `The plan begins on ${begin}, so not before then.`,
  payerStates: (date: string) => `The payer states it is available from ${date}.`,
  payerAgrees: 'The frequency and the services on record give the same date.',
  payerAgreesNow: (asOf: string) =>
    `The frequency and the services on record also make it available on ${asOf}.`,
  payerDisagrees: (payer: string, computed: string) =>
    `The frequency and the services on record give ${computed} instead; the payer's date, ` +
    `${payer}, is used.`,
  payerStale: (payer: string, last: string) =>
    `The payer states ${payer}, but a service that counts is on record on ${last}, after it: ` +
    "the payer's date is older than that service and is not used.",
  partOf: (parent: string, date: string) =>
    `It is part of ${benefitWords(parent)}, which is not available before ${date}.`,
  afterPlanEnd: (date: string, end: string) =>
    `${date} is after the plan ends on ${end}: not under this plan.`,
};
