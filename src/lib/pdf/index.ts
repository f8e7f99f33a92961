/**
 * The door of the PDF library: the house's fonts and a flowing document for people to read.
 * Another module imports from '@/lib/pdf' only (docs/architecture.md, Module graph).
 */
export { embedFonts, fonts } from './fonts';
export { LETTER, Report } from './report';
export { wrapText } from './wrap';
export type { ReportColumn, ReportRow } from './report';
