import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import type { ErrorTree } from '@/platform/kernel/errors';
import { benefitRows, type Plan } from '@/lib/benefits';
import type { BatchItemExport } from '../batches/domain/batch-query.service';
import { MAX_BATCH_ITEMS } from '../api/dto/create-batch.dto';
import { insurerName } from '@/modules/insurers';
import { type CsvColumns, csvLimits, readCsvColumns } from '@/modules/web';

/** The upload's columns, in the template's order. */
const COLUMNS = ['first_name', 'last_name', 'dob', 'zipcode', 'member_id', 'insurer_code'] as const;
type Column = (typeof COLUMNS)[number];

/** The columns and the headers people write for them ("Zip code", "Date of birth", …). */
const BATCH_COLUMNS: CsvColumns<Column> = {
  headers: {
    first_name: 'first_name',
    firstname: 'first_name',
    last_name: 'last_name',
    lastname: 'last_name',
    dob: 'dob',
    date_of_birth: 'dob',
    birth_date: 'dob',
    zipcode: 'zipcode',
    zip_code: 'zipcode',
    zip: 'zipcode',
    member_id: 'member_id',
    memberid: 'member_id',
    insurer_code: 'insurer_code',
    insurer: 'insurer_code',
  },
  required: COLUMNS.filter((c) => c !== 'member_id'),
};

export function templateCsv(): string {
  return stringify([
    [...COLUMNS],
    ['Maria', 'Garcia', '1984-06-15', '78701', 'VSP123456789', 'insurer:demo:vision'],
  ]);
}

/** A parsed upload: the batch body, and the file line of each item (for error messages). */
export interface ParsedUpload {
  body: { items: Record<string, unknown>[] };
  lines: number[];
}

/**
 * The batch file's limits in the CSV intake (docs/api.md, Batches: the web upload). The six
 * columns at their longest (names of 100 characters, a ZIP+4, member id and insurer code of 64)
 * are 355 bytes in ASCII: 1 KiB a line leaves room for names outside ASCII, quoted cells and a
 * few ignored columns (a file of 9.8 MiB at most).
 */
export const BATCH_CSV = csvLimits(MAX_BATCH_ITEMS, 'patients', 1_024);

/** Reads an upload (its stream, or text) into the batch body, or refuses it with why. */
export async function readUpload(source: Readable | string): Promise<ParsedUpload> {
  const rows = await readCsvColumns(source, BATCH_CSV, BATCH_COLUMNS);
  const items = rows.map(({ cell }) => ({
    insurer_code: cell('insurer_code'),
    patient: {
      first_name: cell('first_name'),
      last_name: cell('last_name'),
      dob: cell('dob'),
      zipcode: cell('zipcode'),
      member_id: cell('member_id'),
    },
  }));
  return { body: { items }, lines: rows.map((r) => r.line) };
}

/** The API's error tree of a refused batch as messages by file line: "Line 7: dob: …". */
export function lineErrors(errors: ErrorTree, lines: number[]): string[] {
  const out: string[] = [];
  const walk = (node: ErrorTree, path: string[], line: number | null) => {
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      if (key === '$') {
        const where = line === null ? '' : `Line ${line}: `;
        const field = path.length > 0 ? `${path.join('.')}: ` : '';
        for (const m of value as string[]) out.push(`${where}${field}${m}`);
      } else if (line === null && path.length === 0 && key === 'items') {
        for (const [index, item] of Object.entries(value as ErrorTree))
          if (item) walk(item as ErrorTree, [], lines[Number(index)] ?? null);
        if ((value as ErrorTree).$) walk({ $: (value as ErrorTree).$ }, [], null);
      } else {
        // `patient.first_name` reads as the column it came from.
        walk(value as ErrorTree, key === 'patient' ? path : [...path, key], line);
      }
    }
  };
  walk(errors, [], null);
  return out;
}

/**
 * The results download's columns. New columns go at the end: spreadsheets and scripts read the
 * earlier ones by position.
 */
const RESULT_HEADER = [
  'first_name',
  'last_name',
  'dob',
  'member_id',
  'status',
  'error_code',
  'insurer_code',
  'plan_name',
  'plan_status',
  'active',
  'exam_copay',
  'materials_copay',
  'frame_allowance',
  'contact_lens_allowance',
  'request_uid',
  'coverage',
  'insurer_name',
  'error_reason',
];

/**
 * The common benefits, flattened from the tree: each is the first of its benefit codes (in order)
 * that states the value on the in-network side, its own or inherited. Plans put the figures at
 * different depths: the sandbox states the lens copay per lens type and the contact-lens
 * allowance per kind (elective, medically necessary); an X12 plan may state them on `materials`.
 */
const FLATTENED: readonly { list: 'copayment' | 'allowance'; codes: readonly string[] }[] = [
  { list: 'copayment', codes: ['exam.routine', 'exam'] },
  {
    list: 'copayment',
    codes: ['materials', 'materials.spectacle_lenses', 'materials.spectacle_lenses.single_vision'],
  },
  { list: 'allowance', codes: ['materials.frames'] },
  {
    list: 'allowance',
    codes: ['materials.contact_lenses', 'materials.contact_lenses.elective'],
  },
];

export function resultsHeader(): string {
  return stringify([RESULT_HEADER]);
}

/** Result rows (in-network values of the first plan's first person), safe to open in a spreadsheet. */
export function resultsRows(items: BatchItemExport[]): string {
  return stringify(items.map((item) => resultRow(item).map(neutralise)));
}

/** What a failed check's row says when the insurers' calls left no words (no call was made). */
const ERROR_WORDS: Record<string, string> = {
  insurer_problem: 'The insurer could not be asked or did not answer; try again later.',
  unexpected_error: 'The check failed on our side; try again.',
};

export function errorReason(errorCode: string | null, reason: string | null): string | null {
  if (reason) return reason;
  if (!errorCode) return null;
  return Object.hasOwn(ERROR_WORDS, errorCode)
    ? ERROR_WORDS[errorCode]
    : errorCode.replace(/_/g, ' ');
}

function resultRow(item: BatchItemExport): (string | null)[] {
  const patient = [item.query.firstName, item.query.lastName, item.query.dob, item.query.memberId];
  const body = item.bodyV2
    ? (JSON.parse(item.bodyV2) as {
        results: {
          insurer_code: string;
          plan_name: string;
          status: string;
          plan_is_active: boolean;
          persons: { plan: Plan }[];
        }[];
      })
    : null;
  const plan = body?.results?.[0];
  const values = new Map<
    string,
    Record<string, { value: string | number | boolean } | undefined>
  >();
  const tree = plan?.persons?.[0]?.plan;
  if (tree) for (const row of benefitRows(tree)) if (row.inn) values.set(row.code, row.inn.values);
  const flattened = FLATTENED.map(({ list, codes }) => {
    for (const code of codes) {
      const v = values.get(code)?.[list]?.value;
      if (v !== undefined) return formatMoney(String(v), MONEY.bare);
    }
    return null;
  });
  // The insurer asked, for a row without a plan (failed, or none found).
  const insurerCode = plan?.insurer_code ?? (item.insurerCodes.join(' ') || null);
  return [
    ...patient,
    item.status,
    item.errorCode,
    insurerCode,
    plan?.plan_name ?? null,
    plan?.status ?? null,
    plan ? String(plan.plan_is_active) : null,
    ...flattened,
    item.requestUid,
    coverage(item.status, body?.results?.length ?? 0),
    plan ? insurerName(plan.insurer_code) : item.insurerCodes.map(insurerName).join(', ') || null,
    item.status === 'error' ? errorReason(item.errorCode, item.reason) : null,
  ];
}

/** docs/api.md, Errors: a complete check without plans says so, distinct from a found plan. */
function coverage(status: string, plans: number): string | null {
  if (status !== 'complete') return null;
  return plans > 0 ? 'plan found' : 'no plan found';
}

/**
 * CSV injection: a cell a spreadsheet would read as a formula (= + - @, or a tab or carriage
 * return before one) is prefixed with an apostrophe, so it shows as text. Patient names and
 * member ids come from uploads and insurers: they are not trusted.
 */
export function neutralise(cell: string | null): string {
  if (cell === null) return '';
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
