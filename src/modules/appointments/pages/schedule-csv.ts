import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { ErrorTree } from '@/platform/kernel/errors';
import { type CsvColumns, csvLimits, readCsvColumns } from '@/modules/web';
import { MAX_SYNC_ITEMS } from '../domain/appointment-words';

/**
 * The Schedule page's CSV (docs/api.md, Appointments: the Schedule page): one appointment a line,
 * read into the body of `POST /api/auth/v1/appointments/sync/` for the page's day and location,
 * and the sync's errors placed back on the file's lines. No clock, no database.
 */

/** The columns, in the template's order. */
export const SCHEDULE_COLUMNS = [
  'external_id',
  'starts_at',
  'ends_at',
  'status',
  'location_code',
  'patient_code',
  'first_name',
  'last_name',
  'dob',
  'zipcode',
  'member_id',
  'insurer_code',
] as const;
type Column = (typeof SCHEDULE_COLUMNS)[number];

/**
 * The headers people write for the columns ("Appointment ID", "Zip code", ...), and the columns
 * without which the file says nothing the sync can store.
 */
const COLUMNS: CsvColumns<Column> = {
  headers: {
    ...Object.fromEntries(SCHEDULE_COLUMNS.map((c) => [c, c])),
    appointment_id: 'external_id',
    start: 'starts_at',
    end: 'ends_at',
    location: 'location_code',
    patient: 'patient_code',
    firstname: 'first_name',
    lastname: 'last_name',
    date_of_birth: 'dob',
    birth_date: 'dob',
    zip: 'zipcode',
    zip_code: 'zipcode',
    memberid: 'member_id',
    insurer: 'insurer_code',
    insurer_codes: 'insurer_code',
  },
  required: ['external_id', 'starts_at', 'status', 'insurer_code'],
  once: true,
};

/** Several insurers of one appointment (Universal Search) share a cell: `a;b`. */
const INSURER_SEPARATOR = ';';

export function scheduleTemplateCsv(): string {
  return stringify([
    [...SCHEDULE_COLUMNS],
    [
      'EPIC-APPT-20261124-0042',
      '2026-11-24T15:00:00-06:00',
      '2026-11-24T15:30:00-06:00',
      'booked',
      '',
      '',
      'Maria',
      'Garcia',
      '1984-06-15',
      '78701',
      'VSP123456789',
      'insurer:vision:vsp;insurer:vision:eye_med',
    ],
  ]);
}

/** The sync's window: the page's day and location. */
export interface SyncWindow {
  from: string;
  to: string;
  location_code: string;
}

/** A read file: the sync's body, and the file line of each appointment (for its errors). */
export interface ParsedSchedule {
  body: SyncWindow & { appointments: Record<string, unknown>[] };
  lines: number[];
}

/**
 * The Schedule file's limits in the CSV intake (docs/api.md, Appointments: the Schedule page).
 * The twelve columns at their longest (an id of 64, times with fractions and offsets, names of
 * 100, ten insurer codes of 64 and their separators) are 1,121 bytes in ASCII: 2 KiB a line
 * leaves room for names outside ASCII, quotes and ignored columns (a file of 9.8 MiB at most).
 */
export const SCHEDULE_CSV = csvLimits(MAX_SYNC_ITEMS, 'appointments', 2_048);

/**
 * Reads the file (its stream, or text) for `window`, or refuses it with why. A blank cell is an
 * absent field, as in every form of the application; a blank `location_code` is the window's
 * location. The intake stops at the line after the most a sync takes, so a huge file costs no
 * more than a full one.
 */
export async function readScheduleCsv(
  source: Readable | string,
  window: SyncWindow,
): Promise<ParsedSchedule> {
  const rows = await readCsvColumns(source, SCHEDULE_CSV, COLUMNS);
  const appointments = rows.map(({ cell }) => appointmentOf(cell, window));
  return { body: { ...window, appointments }, lines: rows.map((r) => r.line) };
}

/** One line as a sync item: the patient record or the patient, one insurer or several. */
function appointmentOf(
  cell: (column: Column) => string | undefined,
  window: SyncWindow,
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    external_id: cell('external_id'),
    starts_at: cell('starts_at'),
    ends_at: cell('ends_at'),
    // Practice systems export `Booked`; the API's words are lower-case.
    status: cell('status')?.toLowerCase(),
    location_code: cell('location_code') ?? window.location_code,
  };
  const code = cell('patient_code');
  if (code !== undefined) item.patient_code = code;
  const patient = Object.fromEntries(
    (['first_name', 'last_name', 'dob', 'zipcode', 'member_id'] as const)
      .map((c) => [c, cell(c)] as const)
      .filter(([, v]) => v !== undefined),
  );
  // Names beside a patient code are sent too: the API refuses both, and says so on the line.
  if (Object.keys(patient).length > 0) item.patient = patient;
  const insurers = (cell('insurer_code') ?? '')
    .split(INSURER_SEPARATOR)
    .map((c) => c.trim())
    .filter(Boolean);
  if (insurers.length === 1) item.insurer_code = insurers[0];
  else if (insurers.length > 1) item.insurer_code_list = insurers;
  return item;
}

/**
 * The sync's errors by file line: `Line 7: starts_at: Enter a date and time ...`, the field named
 * by its column (a patient's field by its own, an insurer of a list by `insurer_code`).
 */
export function lineErrors(
  errors: readonly { index: number; errors: Record<string, unknown> }[],
  lines: readonly number[],
): string[] {
  return errors.flatMap(({ index, errors: tree }) =>
    treeMessages(tree as ErrorTree).map((m) => `Line ${lines[index] ?? index + 2}: ${m}`),
  );
}

/** What a field of the API is called in the file. */
const LABELS: Record<string, string> = {
  insurer_code_list: 'insurer_code',
  patient: 'patient (patient_code, or first_name, last_name, dob and zipcode)',
};

/** An error tree's messages, each after the column it belongs to (`dob: ...`), if any. */
export function treeMessages(tree: ErrorTree): string[] {
  const out: string[] = [];
  const walk = (node: ErrorTree, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      if (key !== '$') {
        // A list's index (an insurer of several) is named by its list.
        walk(value as ErrorTree, /^\d+$/.test(key) ? path : [...path, key]);
        continue;
      }
      const last = path[path.length - 1];
      const field =
        last === undefined ? '' : `${Object.hasOwn(LABELS, last) ? LABELS[last] : last}: `;
      for (const m of value as string[]) out.push(`${field}${m}`);
    }
  };
  walk(tree, []);
  return out;
}
