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
};

/** The badge of a cancelled visit: its last check's outcome is no coverage to count on. */
export const CANCELLED_WORDS = 'Visit cancelled';

/** The same states inside a sentence ("state: active → inactive"). */
const STATE_IN_TEXT: Record<CoverageState | 'stale', string> = {
  not_checked: 'not checked',
  checking: 'checking',
  active: 'active',
  inactive: 'inactive',
  no_plan: 'no plan',
  failed: 'could not be checked',
  waiting_for_person: 'waiting for a person',
  // A state of answers stored before `stale` stood beside the state (docs/api.md, Appointments).
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

/**
 * A benefit's line: whether it can be used on the visit's date, in words ("available", "not
 * covered (plan inactive)", "not available until June 21, 2027", "not covered", "not stated by
 * the plan"), with its copay and allowance (null: not stated).
 */
export interface BenefitLine {
  name: string;
  words: string;
  copay: string | null;
  allowance: string | null;
}

export interface ScheduleRow {
  external_id: string;
  /** `09:00–09:30`, at the location's time zone, else at the offset the visit was sent with. */
  time: string;
  /** Where the time is read: the zone's short name (`CST`) or the offset (`UTC−06:00`). */
  zone: string;
  /** The patient's name: as sent, or the patient record's (null: the record could not be read). */
  patient_name: string | null;
  /** The name is the patient record's, stored in lower case (the page writes it in title case). */
  name_of_record: boolean;
  patient_code: string | null;
  insurers: string;
  status: string;
  cancelled: boolean;
  state: CoverageState;
  state_words: string;
  /** The last answer will be older than the policy's freshness at the visit. */
  stale: boolean;
  checked_at: string | null;
  request_uid: string | null;
  /** null: no check answered with benefits. */
  benefits: BenefitLine[] | null;
  changes: string[];
  /** A check may be asked now (a visit to come, of a status the policy checks). */
  checkable: boolean;
}

/** What the page knows of the day besides the worklist's answers. */
export interface ScheduleContext {
  /** The location's IANA time zone, or null. */
  timeZone: string | null;
  /** Each appointment's `starts_at` offset as sent, minutes east of UTC (absent or null: UTC). */
  offsets?: ReadonlyMap<string, number | null>;
  /** The names of the patient records the rows name, by code. */
  names?: ReadonlyMap<string, string>;
}

/** The page's rows, in the worklist's order. */
export function scheduleRows(
  appointments: AppointmentResponse[],
  policy: SchedulePolicy,
  now: Date,
  context: ScheduleContext = { timeZone: null },
): ScheduleRow[] {
  return appointments.map((a) => {
    const benefits = a.coverage.benefits;
    const clock = clockOf(context.timeZone, context.offsets?.get(a.external_id) ?? null);
    const cancelled = a.status === 'cancelled';
    return {
      external_id: a.external_id,
      time: a.ends_at
        ? `${clock.time(a.starts_at)}–${clock.time(a.ends_at)}`
        : clock.time(a.starts_at),
      zone: clock.zone(a.starts_at),
      patient_name: a.patient
        ? `${a.patient.first_name} ${a.patient.last_name}`
        : (context.names?.get(a.patient_code ?? '') ?? null),
      name_of_record: !a.patient,
      patient_code: a.patient_code,
      insurers: a.insurer_codes.map(insurerName).join(', '),
      status: STATUS_WORDS[a.status],
      cancelled,
      state: a.coverage.state,
      state_words: cancelled ? CANCELLED_WORDS : COVERAGE_WORDS[a.coverage.state],
      stale: a.coverage.stale,
      checked_at: a.coverage.checked_at,
      request_uid: a.coverage.request_uid,
      benefits: benefits ? benefitLines(benefits, a.coverage.state, clock.date(a.starts_at)) : null,
      changes: (a.coverage.changes ?? []).map(changeWords),
      checkable: isCheckable({ startsAt: new Date(a.starts_at), status: a.status }, now, policy),
    };
  });
}

/** How a row's instants read: in the time zone, else at the offset, else in UTC. */
function clockOf(timeZone: string | null, offset: number | null) {
  if (timeZone) {
    const hhmm = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' });
    // en-CA writes dates as YYYY-MM-DD.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone });
    return {
      time: (at: string) => hhmm.format(new Date(at)),
      date: (at: string) => day.format(new Date(at)),
      zone: (at: string) =>
        name.formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value ?? timeZone,
    };
  }
  const minutes = offset ?? 0;
  return {
    time: (at: string) => new Date(Date.parse(at) + minutes * 60_000).toISOString().slice(11, 16),
    date: (at: string) => new Date(Date.parse(at) + minutes * 60_000).toISOString().slice(0, 10),
    zone: () => offsetWords(minutes),
  };
}

/** `UTC`, `UTC−06:00`, `UTC+05:30`. */
export function offsetWords(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${minutes < 0 ? '\u2212' : '+'}${hh}:${mm}`;
}

/** A date in words: `June 21, 2027`. */
const DATE_WORDS = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
export const dateWords = (date: string): string => DATE_WORDS.format(new Date(`${date}T00:00:00Z`));

function benefitLines(
  benefits: Partial<Record<CoverageBenefit, CoverageBenefitView>>,
  state: CoverageState,
  visitDate: string,
): BenefitLine[] {
  return (Object.keys(BENEFIT_WORDS) as CoverageBenefit[]).map((name) => {
    const b = benefits[name];
    return {
      name: BENEFIT_WORDS[name],
      words: availabilityWords(b ?? null, state, visitDate),
      copay: money(b?.copayment ?? null),
      allowance: money(b?.allowance ?? null),
    };
  });
}

/**
 * Whether the benefit can be used on the visit's date, in words: `available` is false for a plan
 * not active that day, a benefit not covered, or one used until a later date (docs/api.md,
 * Appointments); the words say which.
 */
function availabilityWords(
  b: CoverageBenefitView | null,
  state: CoverageState,
  visitDate: string,
): string {
  if (!b || b.available === null) return 'not stated by the plan';
  if (b.available) return 'available';
  if (state !== 'active') return 'not covered (plan inactive)';
  if (b.next_eligible_date && b.next_eligible_date > visitDate)
    return `not available until ${dateWords(b.next_eligible_date)}`;
  return 'not covered';
}

const yesNo = (v: unknown): string => (v === true ? 'Yes' : v === false ? 'No' : 'Unknown');

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
    ? STATE_IN_TEXT[v as keyof typeof STATE_IN_TEXT]
    : valueText(v);
}

/** A stored value as text: JSON's scalars as they are, anything else as JSON. */
function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v)
    : JSON.stringify(v);
}
