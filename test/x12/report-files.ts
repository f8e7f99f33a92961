import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readClaimReport } from '@/lib/x12/claim-report.reader';
import { x12Refusal } from './refusal';

/** The files of test/x12/reports, each validated by pyx12 (claim-report.pyx12.tools.spec.ts). */
export const report = (name: string) => readFileSync(resolve(__dirname, 'reports', name), 'utf8');

/** The reader's X12ParseError message for `text` (it must refuse it). */
export const parseError = (text: string) => x12Refusal(readClaimReport, text);
