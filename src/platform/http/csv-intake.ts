import { Readable, Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/**
 * One intake for every CSV file the service reads (docs/api.md, Batches and Appointments: the
 * Schedule page): the file is parsed as it streams in and refused at the first limit it crosses,
 * so a hostile file never costs more than a full valid one. Nothing here holds the file: only
 * the rows already accepted, each at most `maxRecordBytes`, at most `maxRows` of them.
 */
export interface CsvLimits {
  /** The rows (after the header) a valid file has at most. */
  maxRows: number;
  /** What a row is, in the refusal: "patients", "appointments". */
  rowsAre: string;
  /** The bytes of one line's cells a valid file needs at most (quotes and commas aside). */
  maxRecordBytes: number;
  /** The header's columns at most; a row may not be wider than its header. */
  maxColumns: number;
  /** The file's bytes at most: its lines times the longest valid line, said where it is set. */
  maxBytes: number;
}

/** A read file: its header, and each row with the file line it ends on. */
interface CsvTable {
  header: string[];
  rows: { cells: string[]; line: number }[];
}

/** A file refused as a whole, with why (and its line when there is one), for the page to show. */
export class CsvRefused extends Error {}

/** A request without a file, or with an empty one. */
export const NO_FILE = 'Choose a CSV file to upload.';

const count = (n: number) => n.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${count(bytes)} bytes`
    : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Reads `source` (an upload's stream, or text) within `limits`. On a refusal the source is
 * detached and left flowing, so the rest of an upload is discarded as it arrives, never held.
 */
export async function readCsv(source: Readable | string, limits: CsvLimits): Promise<CsvTable> {
  // Text as bytes, as an upload comes: the limits count bytes.
  const input = typeof source === 'string' ? Readable.from([Buffer.from(source)]) : source;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limits.maxBytes)
        return done(new CsvRefused(`The file is larger than ${size(limits.maxBytes)}.`));
      done(null, chunk);
    },
  });
  type Row = { record: string[]; info: { lines: number } };
  // Set as the header's record ends, in the parser's own pass: the cells of the lines after it
  // are checked against it before any of them is handed on.
  let width: number | null = null;
  const parser = parse({
    bom: true,
    info: true,
    // Shorter rows are read (their missing cells are blank); wider ones are refused below.
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: limits.maxRecordBytes,
    // Called for each cell as it ends: a line of millions of empty cells is refused at the first
    // cell past its header's width, before the line is held as an array.
    cast: (value, { index, lines }) => {
      if (index < (width ?? limits.maxColumns)) return value;
      throw new CsvRefused(
        width === null
          ? `Line ${count(lines)}: the header has more than ${limits.maxColumns} columns.`
          : `Line ${count(lines)}: the line has more cells than the header's ${width} columns.`,
      );
    },
    on_record: (record, { records }) => {
      // With `info`, each record comes as { record, info } (the types say a plain array).
      const row = record as unknown as Row;
      if (width === null) width = row.record.length;
      else if (records > limits.maxRows + 1)
        throw new CsvRefused(
          `Line ${count(row.info.lines)}: At most ${count(limits.maxRows)} ${limits.rowsAre} per file; this one has more.`,
        );
      return record;
    },
  });
  const failed = (e: unknown) => counter.destroy(e as Error);
  input.on('error', failed);
  counter.on('error', (e) => parser.destroy(e));
  input.pipe(counter).pipe(parser);
  const table: CsvTable = { header: [], rows: [] };
  let records = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<Row>) {
      records += 1;
      if (records === 1) table.header = record;
      else table.rows.push({ cells: record, line: info.lines });
    }
  } catch (e) {
    throw refusal(e, limits);
  } finally {
    // `failed` stays: a dropped upload that fails later has a listener, and fails nothing more.
    input.unpipe(counter);
    parser.destroy();
    // The rest of a refused upload is read and dropped, so the request ends and the page answers.
    input.resume();
  }
  if (bytes === 0) throw new CsvRefused(NO_FILE);
  if (records === 0) throw new CsvRefused('The file is empty.');
  return table;
}

function refusal(e: unknown, limits: CsvLimits): unknown {
  if (e instanceof CsvRefused || !(e instanceof CsvError)) return e;
  if (e.code === 'CSV_MAX_RECORD_SIZE') {
    const line = (e as CsvError & { lines?: number }).lines;
    return new CsvRefused(
      `Line ${count(line ?? 0)}: the line is longer than ${count(limits.maxRecordBytes)} bytes, the most a line may be.`,
    );
  }
  return new CsvRefused(`Not a readable CSV file: ${e.message}`);
}
