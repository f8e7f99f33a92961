import { X12ParseError } from './x12.errors';
import { tokenize } from './x12.tokenizer';

/**
 * An interchange one segment a line, for people reading the exchange log. Text that is not X12
 * (an HTML error page, a truncated file) comes back as it was.
 */
export function prettyX12(text: string): string {
  try {
    const { segments, separators } = tokenize(text);
    return segments.map((s) => `${s.toString()}${separators.segment}`).join('\n');
  } catch (e) {
    if (e instanceof X12ParseError) return text;
    throw e;
  }
}
