import type { Readable } from 'node:stream';
import { type CsvLimits, CsvRefused, readCsv } from '@/platform/http/csv-intake';

/** A page's CSV columns: the headers each is known by, and those a file must have. */
export interface CsvColumns<C extends string> {
  /** Each header people write (lower case, spaces and dashes as `_`) and the column it names. */
  headers: Readonly<Record<string, C>>;
  required: readonly C[];
  /** A column given twice is refused (else its first cell is read). */
  once?: boolean;
}

/**
 * A page file's limits: the header and at most `maxRows` lines of `maxRecordBytes`, so its size
 * bound follows from them, and at most 32 columns (a few the page ignores among them).
 */
export const csvLimits = (maxRows: number, rowsAre: string, maxRecordBytes: number): CsvLimits => ({
  maxRows,
  rowsAre,
  maxRecordBytes,
  maxColumns: 32,
  maxBytes: (maxRows + 1) * maxRecordBytes,
});

/** One line of a read file: its number, and its cell of a column (a blank cell: undefined). */
export interface CsvLine<C extends string> {
  line: number;
  cell: (column: C) => string | undefined;
}

/**
 * Reads a page's file (its stream, or text) through the CSV intake within `limits`, or refuses
 * it with why: a column given twice (`once`), a required one missing, no line under the header.
 * A blank cell is an absent field, as in every form of the application.
 */
export async function readCsvColumns<C extends string>(
  source: Readable | string,
  limits: CsvLimits,
  columns: CsvColumns<C>,
): Promise<CsvLine<C>[]> {
  const { header: names, rows } = await readCsv(source, limits);
  const header = names.map((h) => {
    const name = h.toLowerCase().replace(/[\s-]+/g, '_');
    return Object.hasOwn(columns.headers, name) ? columns.headers[name] : null;
  });
  const twice = header.find((c, i) => c !== null && header.indexOf(c) !== i);
  if (columns.once && twice) throw new CsvRefused(`Line 1: the column ${twice} is given twice.`);
  const missing = columns.required.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new CsvRefused(`Line 1: the header lacks ${missing.join(', ')} (download the template).`);
  if (rows.length === 0) throw new CsvRefused(`The file has a header but no ${limits.rowsAre}.`);
  return rows.map(({ line, cells }) => ({
    line,
    cell: (column) => {
      const value = cells[header.indexOf(column)];
      return value === undefined || value === '' ? undefined : value;
    },
  }));
}
