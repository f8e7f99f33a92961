import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readClaimReport } from '@/modules/x12/claim-report.reader';
import { X12ParseError } from '@/modules/x12/x12.errors';

/** The files of test/x12/reports, each validated by pyx12 (claim-report.pyx12.spec.ts). */
export const report = (name: string) => readFileSync(resolve(__dirname, 'reports', name), 'utf8');

/** The reader's X12ParseError message for `text` (it must refuse it). */
export function parseError(text: string): string {
  try {
    readClaimReport(text);
  } catch (e) {
    expect(e).toBeInstanceOf(X12ParseError);
    return (e as Error).message;
  }
  throw new Error('expected an X12ParseError');
}
