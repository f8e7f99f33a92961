import { X12ParseError } from './x12.errors';
import { tokenize } from './x12.tokenizer';

/** The numbers that name one interchange, as a clearinghouse or a payer quotes them back. */
export interface ControlNumbers {
  /** ISA13. */
  interchange: string;
  /** GS06 of the first functional group, or null when there is none. */
  group: string | null;
  /** ST02 of the first transaction set, or null when there is none. */
  transaction: string | null;
  /** BHT03, the submitter's reference of a 270 (echoed in the 271), or null. */
  reference: string | null;
}

/**
 * The control numbers of an interchange as it was sent or received (an eligibility snapshot
 * names the exchange by them: docs/api.md, Eligibility), read leniently: only the envelope's
 * first group and set are looked at, and text that is not X12 gives null (a sandbox call, an
 * error page), never an error.
 */
export function controlNumbers(text: string | null | undefined): ControlNumbers | null {
  if (!text || !text.trimStart().startsWith('ISA')) return null;
  try {
    const { segments } = tokenize(text);
    const first = (id: string) => segments.find((s) => s.id === id);
    const value = (id: string, n: number) => first(id)?.el(n) || null;
    const interchange = segments[0].el(13).trim();
    if (!interchange) return null;
    return {
      interchange,
      group: value('GS', 6),
      transaction: value('ST', 2),
      reference: value('BHT', 3),
    };
  } catch (e) {
    if (e instanceof X12ParseError) return null;
    throw e;
  }
}
