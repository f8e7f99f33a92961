import type { Client } from 'pg';
import type { Api } from './api';
import { sleep } from './proc';

/** What scenarios 8 and 9 share: the appointment policy, a sync's items, the checks loop's pass. */

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const POLICY = '/api/auth/v1/appointment-policy/';
export const SYNC = '/api/auth/v1/appointments/sync/';

/**
 * The account's policy (docs/api.md, Appointments). Without `onBooking`, a visit days away is
 * never due: its one point is an hour before it.
 */
export async function putPolicy(api: Api, onBooking: boolean): Promise<void> {
  await api.expect(200, 'PUT', POLICY, {
    on_booking: onBooking,
    days_before: [],
    hours_before: [1],
    freshness_hours: 720,
    statuses: ['booked'],
  });
}

/** A sync's window: [from, from + days). */
export interface Window {
  from: Date;
  to: Date;
}

export function windowAt(from: Date, days: number): Window {
  return { from, to: new Date(from.getTime() + days * DAY_MS) };
}

/**
 * `count` appointments spread over the window (an hour from each end), each with its own patient
 * (so no check's answer is reused for another), a full item of about 0.6 KiB as docs/api.md
 * counts it: times, status, services, patient with member id, insurer, source_updated_at.
 */
export function syncBody(prefix: string, count: number, w: Window) {
  const span = w.to.getTime() - w.from.getTime() - 2 * HOUR_MS;
  const updatedAt = new Date().toISOString();
  return {
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    appointments: Array.from({ length: count }, (_, i) => {
      const starts = w.from.getTime() + HOUR_MS + Math.floor((i * span) / count);
      return {
        external_id: `${prefix}-${String(i).padStart(6, '0')}`,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + HOUR_MS / 2).toISOString(),
        status: 'booked',
        services: ['exam.routine', 'materials.frames'],
        patient: {
          first_name: `Visit${prefix.replace(/[^a-z0-9]/gi, '')}x${i}`,
          last_name: 'Garcia',
          dob: '1984-06-15',
          zipcode: '78701',
          member_id: `M${prefix.replace(/[^a-z0-9]/gi, '')}${i}`,
        },
        insurer_code: 'insurer:demo:vision',
        source_updated_at: updatedAt,
      };
    }),
  };
}

export interface SyncAnswer {
  created: number;
  updated: number;
  unchanged: number;
  cancelled: number;
  errors: unknown[];
}

/**
 * Until the checks loop has looked at every appointment of the account due now (none left with
 * `next_check_at` passed), bounded: the loop runs every 10 s in the service (CHECK_LOOP_MS).
 */
export async function loopPassed(db: Client, accountId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM appointments WHERE account_id = $1 AND next_check_at <= now()`,
      [accountId],
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${rows[0].n} appointments still due ${timeoutMs / 1000} s later`);
    await sleep(200);
  }
}
