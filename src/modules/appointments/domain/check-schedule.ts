/**
 * When an appointment is checked (docs/api.md, Appointments: the policy): on booking, and at
 * each point before the visit (`days_before` days, `hours_before` hours), never for a visit past
 * or cancelled or of a status the policy leaves out. Pure: the caller passes the time.
 */

export interface SchedulePolicy {
  on_booking: boolean;
  days_before: readonly number[];
  hours_before: readonly number[];
  freshness_hours: number;
  statuses: readonly string[];
}

/** What the schedule needs of an appointment. */
interface ScheduleInput {
  startsAt: Date;
  status: string;
  /** When its last check ran for its present patient and insurers (null: never). */
  lastCheckAt: Date | null;
  /** "Check now" was asked. */
  forced: boolean;
}

const HOUR_MS = 3_600_000;

/** The policy's points before the visit, earliest first. */
export function checkPoints(startsAt: Date, policy: SchedulePolicy): Date[] {
  const at = startsAt.getTime();
  const points = new Set([
    ...policy.days_before.map((d) => at - d * 24 * HOUR_MS),
    ...policy.hours_before.map((h) => at - h * HOUR_MS),
  ]);
  return [...points].sort((a, b) => a - b).map((ms) => new Date(ms));
}

/** Whether a visit is still to be checked at all: to come, and of a status the policy checks. */
export function isCheckable(
  input: Pick<ScheduleInput, 'startsAt' | 'status'>,
  now: Date,
  policy: SchedulePolicy,
): boolean {
  if (input.status === 'cancelled' || input.status === 'noshow') return false;
  return policy.statuses.includes(input.status) && input.startsAt.getTime() > now.getTime();
}

/**
 * At `now`: whether a check is due (asked for, the booking's, or a point passed since the last
 * check), and when the schedule looks again (the next point after `now`; null: never again).
 */
export function decide(
  input: ScheduleInput,
  now: Date,
  policy: SchedulePolicy,
): { due: boolean; next: Date | null } {
  if (!isCheckable(input, now, policy)) return { due: false, next: null };
  const t = now.getTime();
  const points = checkPoints(input.startsAt, policy);
  const next = points.find((p) => p.getTime() > t) ?? null;
  if (input.forced) return { due: true, next };
  const last = input.lastCheckAt?.getTime() ?? null;
  const passed = points.some((p) => p.getTime() <= t && (last === null || p.getTime() > last));
  const due = (last === null && policy.on_booking) || passed;
  return { due, next };
}

/** Whether an answer of `checkedAt` is fresh at `now`. */
export function isFresh(checkedAt: Date, now: Date, policy: SchedulePolicy): boolean {
  return now.getTime() - checkedAt.getTime() < policy.freshness_hours * HOUR_MS;
}

/** The end of an answer's freshness. */
export function freshUntil(checkedAt: Date, policy: SchedulePolicy): Date {
  return new Date(checkedAt.getTime() + policy.freshness_hours * HOUR_MS);
}

/** `stale`: the answer will be older than the policy's freshness when the visit starts. */
export function isStaleAtVisit(checkedAt: Date, startsAt: Date, policy: SchedulePolicy): boolean {
  return freshUntil(checkedAt, policy).getTime() < startsAt.getTime();
}
