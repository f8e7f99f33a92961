import { formatMoney, MONEY } from '@/platform/kernel/money';
import { insurerName } from '@/modules/insurers';
import type { AppointmentResponse } from '../api/dto/appointment.response';
import type { AppointmentStatus, CoverageState } from '../domain/appointment-words';
import { isCheckable, type SchedulePolicy } from '../domain/check-schedule';
import type { CoverageBenefit, CoverageBenefitView } from '../domain/coverage';

/**
 * What the Schedule page shows of an appointment (docs/api.md, Appointments: the Schedule page):
 * every state, benefit and change in words, so nothing is told by colour alone. Pure.
 */

/** The coverage badge's words; its colour is the view's `coverage-<state>` class. */
export const COVERAGE_WORDS: Record<CoverageState, string> = {
  not_checked: 'Not checked',
  checking: 'Checking',
  active: 'Active',
  inactive: 'Inactive',
  no_plan: 'No plan found',
  failed: 'Could not be checked',
  waiting_for_person: 'Waiting for a person',
  stale: 'Stale',
};

/** The same states inside a sentence ("state: active → inactive"). */
const STATE_IN_TEXT: Record<CoverageState, string> = {
  not_checked: 'not checked',
  checking: 'checking',
  active: 'active',
  inactive: 'inactive',
  no_plan: 'no plan',
  failed: 'could not be checked',
  waiting_for_person: 'waiting for a person',
  stale: 'stale',
};

const STATUS_WORDS: Record<AppointmentStatus, string> = {
  booked: 'Booked',
  arrived: 'Arrived',
  fulfilled: 'Fulfilled',
  cancelled: 'Cancelled',
  noshow: 'No-show',
};

/** The four benefits of a coverage, in the page's order and words. */
export const BENEFIT_WORDS: Record<CoverageBenefit, string> = {
  exam: 'Exam',
  frames: 'Frames',
  spectacle_lenses: 'Lenses',
  contact_lenses: 'Contacts',
};

/** A benefit's line: available yes/no/unknown, with its copay and allowance (null: not stated). */
export interface BenefitLine {
  name: string;
  available: 'Yes' | 'No' | 'Unknown';
  /** From when a used benefit is available again (with `No`). */
  next_eligible_date: string | null;
  copay: string | null;
  allowance: string | null;
}

export interface ScheduleRow {
  external_id: string;
  /** `15:00–15:30` (UTC, as the day is). */
  time: string;
  /** The patient's name as sent, or null with `patient_code`. */
  patient_name: string | null;
  patient_code: string | null;
  insurers: string;
  status: string;
  state: CoverageState;
  state_words: string;
  checked_at: string | null;
  request_uid: string | null;
  /** null: no check answered with benefits. */
  benefits: BenefitLine[] | null;
  changes: string[];
  /** A check may be asked now (a visit to come, of a status the policy checks). */
  checkable: boolean;
}

/** The page's rows, in the worklist's order. */
export function scheduleRows(
  appointments: AppointmentResponse[],
  policy: SchedulePolicy,
  now: Date,
): ScheduleRow[] {
  return appointments.map((a) => {
    const benefits = a.coverage.benefits;
    return {
      external_id: a.external_id,
      time: a.ends_at ? `${clock(a.starts_at)}–${clock(a.ends_at)}` : clock(a.starts_at),
      patient_name: a.patient ? `${a.patient.first_name} ${a.patient.last_name}` : null,
      patient_code: a.patient_code,
      insurers: a.insurer_codes.map(insurerName).join(', '),
      status: STATUS_WORDS[a.status],
      state: a.coverage.state,
      state_words: COVERAGE_WORDS[a.coverage.state],
      checked_at: a.coverage.checked_at,
      request_uid: a.coverage.request_uid,
      benefits: benefits ? benefitLines(benefits) : null,
      changes: (a.coverage.changes ?? []).map(changeWords),
      checkable: isCheckable({ startsAt: new Date(a.starts_at), status: a.status }, now, policy),
    };
  });
}

/** `HH:MM` of an instant answered in UTC (`2026-11-24T21:00:00.000+00:00`). */
function clock(at: string): string {
  return new Date(at).toISOString().slice(11, 16);
}

function benefitLines(
  benefits: Partial<Record<CoverageBenefit, CoverageBenefitView>>,
): BenefitLine[] {
  return (Object.keys(BENEFIT_WORDS) as CoverageBenefit[]).map((name) => {
    const b = benefits[name];
    return {
      name: BENEFIT_WORDS[name],
      available: yesNo(b?.available ?? null),
      next_eligible_date: b?.available === false ? (b.next_eligible_date ?? null) : null,
      copay: money(b?.copayment ?? null),
      allowance: money(b?.allowance ?? null),
    };
  });
}

const yesNo = (v: unknown): BenefitLine['available'] =>
  v === true ? 'Yes' : v === false ? 'No' : 'Unknown';

/** A decimal amount as the API writes them (docs/api.md, Conventions: at most four places). */
const AMOUNT = /^-?\d{1,12}(\.\d{1,4})?$/;

/** Dollars without float maths; a value that is not an amount is shown as the insurer sent it. */
function money(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const text = valueText(v);
  return AMOUNT.test(text) ? formatMoney(text, MONEY.page) : text;
}

/** What a field of `changes` names: `state`, `benefits.frames.available`, ... */
const CHANGE_FIELDS: Record<string, string> = {
  available: 'available',
  copayment: 'copay',
  allowance: 'allowance',
};

/**
 * A change in words: `state: active → inactive`, `Frames available: yes → no`,
 * `Exam copay: $10.00 → $25.00` (an absent value is `none`).
 */
export function changeWords(change: unknown): string {
  const c = (change ?? {}) as { field?: unknown; before?: unknown; after?: unknown };
  const field = typeof c.field === 'string' ? c.field : '';
  if (field === 'state') return `state: ${stateText(c.before)} → ${stateText(c.after)}`;
  const [, benefit, key] = field.split('.');
  const name = BENEFIT_WORDS[benefit as CoverageBenefit];
  const what = CHANGE_FIELDS[key];
  if (!field.startsWith('benefits.') || !name || !what)
    return `${field || 'coverage'}: ${valueText(c.before)} → ${valueText(c.after)}`;
  const value = (v: unknown) =>
    key === 'available' ? yesNo(v).toLowerCase() : (money(v) ?? 'none');
  return `${name} ${what}: ${value(c.before)} → ${value(c.after)}`;
}

function stateText(v: unknown): string {
  return typeof v === 'string' && v in STATE_IN_TEXT
    ? STATE_IN_TEXT[v as CoverageState]
    : valueText(v);
}

/** A stored value as text: JSON's scalars as they are, anything else as JSON. */
function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v)
    : JSON.stringify(v);
}
