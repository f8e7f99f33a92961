/**
 * A malformed interchange. The message names the segment (its 1-based position in the
 * interchange and its id) and what is wrong, so an operator reading the exchange log can find it.
 */
export class X12ParseError extends Error {
  override readonly name = 'X12ParseError';

  /**
   * The message for a log: every quoted piece of the interchange (its opening, a segment, an
   * element's value) becomes "…", since report text holds patients' names and ids. The sender
   * gets the whole message; a log keeps only where and what.
   */
  get redacted(): string {
    return this.message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"');
  }
}

/** A value that cannot be written (it holds a separator, or does not fit its element). */
export class X12WriteError extends Error {
  override readonly name = 'X12WriteError';
}
