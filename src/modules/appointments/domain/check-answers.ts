import type { StoredCoverage } from '../store/appointment.entity';
import type { CheckRow, CheckUpdate } from '../store/appointment-checks.repository';
import { freshUntil, isStaleAtVisit, type SchedulePolicy } from './check-schedule';
import { changesBetween, type CoverageBasis, type CoverageChange, coverageOn } from './coverage';
import { formatInstant } from '@/platform/kernel/time';
import { COVERAGE_STATES } from './appointment-words';

/** States that hold an answer (the others: none yet, or one running). */
const ANSWERED = new Set<string>(
  COVERAGE_STATES.filter((s) => s !== 'not_checked' && s !== 'checking'),
);

/** The row as it stands, with the schedule's `next` point when given: the base of every update. */
export function unchanged(row: CheckRow, next?: Date | null): CheckUpdate {
  const at = next === undefined ? row.next_check_at : next;
  return {
    id: row.id,
    coverage_state: row.coverage_state,
    coverage_stale: row.coverage_stale,
    coverage: row.coverage,
    next_check_at: at ? formatInstant(at, 'utc') : null,
    checked_at: row.checked_at ? formatInstant(row.checked_at, 'utc') : null,
    checked_key: row.checked_key,
    check_request_uid: row.check_request_uid,
  };
}

/** The answer the last check gave, before any check now running (null: none yet). */
export function answeredState(row: CheckRow): string | null {
  if (row.coverage?.answered_state) return row.coverage.answered_state;
  return ANSWERED.has(row.coverage_state) ? row.coverage_state : null;
}

/**
 * An answer applied to an appointment: the coverage on its visit's date, whether it is `stale`
 * (the answer will be older than the policy's freshness at the visit: beside the state, never
 * instead of it), and what changed since the previous answer (none for a first answer; `stale`
 * is the answer's age, not a change).
 */
export function answered(
  row: CheckRow,
  basis: CoverageBasis,
  answeredAt: Date,
  requestUid: string | null,
  policy: SchedulePolicy,
): {
  coverageState: string;
  stale: boolean;
  coverage: StoredCoverage;
  changes: CoverageChange[];
  first: boolean;
} {
  const view = coverageOn(basis, row.visit_date);
  const stale = staleAt(view.state, answeredAt, row, policy);
  const before = answeredState(row);
  const changes =
    before === null
      ? []
      : changesBetween(
          { state: before, benefits: (row.coverage?.benefits ?? null) as never },
          { state: view.state, benefits: view.benefits },
        );
  return {
    coverageState: view.state,
    stale,
    coverage: {
      checked_at: formatInstant(answeredAt, 'utc'),
      fresh_until: formatInstant(freshUntil(answeredAt, policy), 'utc'),
      request_uid: requestUid,
      changes,
      benefits: view.benefits,
      basis,
      answered_state: view.state,
    },
    changes,
    first: before === null,
  };
}

/**
 * The row's answer read again without a new check (its visit moved, or the policy changed): the
 * same answer on the visit's date as it now is, with the changes it had.
 */
export function reread(
  row: CheckRow,
  policy: SchedulePolicy,
): Pick<CheckUpdate, 'coverage_state' | 'coverage_stale' | 'coverage'> {
  const basis = row.coverage?.basis;
  const at = row.coverage?.checked_at;
  if (!basis || !at || row.coverage_state === 'checking')
    return {
      coverage_state: row.coverage_state,
      coverage_stale: row.coverage_stale,
      coverage: row.coverage,
    };
  const view = coverageOn(basis, row.visit_date);
  return {
    coverage_state: view.state,
    coverage_stale: staleAt(view.state, new Date(at), row, policy),
    coverage: {
      ...row.coverage,
      fresh_until: formatInstant(freshUntil(new Date(at), policy), 'utc'),
      benefits: view.benefits,
    },
  };
}

/** Whether an answer of `state` given at `answeredAt` is stale at the row's visit (a plan's answer). */
function staleAt(state: string, answeredAt: Date, row: CheckRow, policy: SchedulePolicy): boolean {
  return (
    (state === 'active' || state === 'inactive' || state === 'no_plan') &&
    isStaleAtVisit(answeredAt, new Date(row.starts_at), policy)
  );
}
