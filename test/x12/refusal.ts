import { X12ParseError } from '@/lib/x12/x12.errors';

/** The X12ParseError message `read` throws for `text`; a reader that accepts it fails the test. */
export function x12Refusal(read: (text: string) => unknown, text: string): string {
  try {
    read(text);
  } catch (e) {
    expect(e).toBeInstanceOf(X12ParseError);
    return (e as Error).message;
  }
  throw new Error('expected an X12ParseError');
}
