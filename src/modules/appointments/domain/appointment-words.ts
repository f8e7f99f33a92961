/**
 * The words of appointments (docs/api.md, Appointments): their statuses as the practice system
 * sends them, and the states of their coverage as the checks will leave them.
 */

export const APPOINTMENT_STATUSES = [
  'booked',
  'arrived',
  'fulfilled',
  'cancelled',
  'noshow',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * `not_checked` until a coverage check ran; `checking` while one runs; then what it found:
 * `active`, `inactive` (a plan, not active at the appointment), `no_plan`, `failed` (no answer),
 * `waiting_for_person` (an insurer a person answers). The answer's age is not a state: it is
 * `coverage.stale` (docs/api.md, Appointments).
 */
export const COVERAGE_STATES = [
  'not_checked',
  'checking',
  'active',
  'inactive',
  'no_plan',
  'failed',
  'waiting_for_person',
] as const;
export type CoverageState = (typeof COVERAGE_STATES)[number];

/** The worklist's `coverage_state` filter: a state, or `stale` (`coverage.stale` true). */
export const COVERAGE_FILTERS = [...COVERAGE_STATES, 'stale'] as const;
export type CoverageFilter = (typeof COVERAGE_FILTERS)[number];

/**
 * The practice system's own id: 1–64 printable ASCII characters (space to `~`); the length is
 * the field's own rule (its own message).
 */
export const EXTERNAL_ID = /^[\x20-\x7e]+$/;
export const EXTERNAL_ID_MAX_LENGTH = 64;
export const EXTERNAL_ID_MESSAGE = 'Use 1–64 printable ASCII characters.';

/** A benefit code of the benefit tree (`exam.routine`, `materials.frames`). */
export const BENEFIT_CODE = /^[a-z_]+(\.[a-z_]+)*$/;
export const BENEFIT_CODE_MESSAGE =
  'Enter a benefit code: lower-case words joined by dots, e.g. exam.routine.';
export const MAX_SERVICES = 20;

/** docs/api.md, Appointments: a sync lists at most this many appointments, in at most this window. */
export const MAX_SYNC_ITEMS = 5_000;
export const MAX_SYNC_WINDOW_DAYS = 31;
