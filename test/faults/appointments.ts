import { PgCluster, RedisServer, waitFor } from './infra';
import { DEMO, type Figures, SETTLE_MS, Stage } from './stage';

/** Appointments synced, each with its own patient: one check each. */
const APPOINTMENTS = 500;
const HOUR_MS = 3_600_000;

/** What the appointments' checks have come to (fresh from the database). */
interface CheckCounts {
  /** coverage_state left `not_checked`/`checking` and no check left due (docs/api.md, Appointments). */
  answered: number;
  notChecked: number;
  checking: number;
  /** Eligibility requests of origin `appointment` of the account, and those still processing. */
  requests: number;
  processing: number;
}

async function call(base: string, key: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Api ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * docs/api.md, Appointments: "the schedule is kept in PostgreSQL (`next_check_at`), so a restart
 * or a lost Redis loses no check". 500 appointments synced under a policy that checks on
 * booking, the service killed -9 once some checks are answered and others not, restarted at once:
 * every appointment ends answered, with exactly one check request each and none left processing.
 */
export async function checksAcrossKill(
  pg: PgCluster,
  redis: RedisServer,
  workDir: string,
): Promise<Figures> {
  const stage = new Stage('checks', pg, redis, workDir);
  const started = Date.now();
  try {
    const svc = stage.service('all', 'all');
    await svc.start();
    await stage.prepare(svc);
    const policy = await call(svc.base, stage.key, 'PUT', '/api/auth/v1/appointment-policy/', {
      on_booking: true,
      days_before: [],
      hours_before: [1],
      freshness_hours: 24,
      statuses: ['booked'],
    });
    if (policy.status !== 200)
      throw new Error(`policy not stored: ${policy.status} ${JSON.stringify(policy.body)}`);

    const counts = async (): Promise<CheckCounts> => {
      const [c] = await stage.query<Record<keyof CheckCounts, number>>(
        `SELECT
           count(*) FILTER (WHERE coverage_state NOT IN ('not_checked', 'checking')
             AND (next_check_at IS NULL OR next_check_at > now()))::int AS answered,
           count(*) FILTER (WHERE coverage_state = 'not_checked')::int AS "notChecked",
           count(*) FILTER (WHERE coverage_state = 'checking')::int AS checking,
           (SELECT count(*)::int FROM eligibility_requests r
            WHERE r.account_id = $1 AND r.origin = 'appointment') AS requests,
           (SELECT count(*)::int FROM eligibility_requests r
            WHERE r.account_id = $1 AND r.origin = 'appointment' AND r.status = 'processing') AS processing
         FROM appointments WHERE account_id = $1`,
        [stage.accountId],
      );
      return c;
    };

    /** The check requests' uids (each an ordinary request: its eligibility webhook goes out). */
    const checkUids = async () =>
      (
        await stage.query<{ uid: string }>(
          "SELECT uid FROM eligibility_requests WHERE account_id = $1 AND origin = 'appointment'",
          [stage.accountId],
        )
      ).map((r) => r.uid);

    // Visits 2 to 20 hours from now, each with its own patient (no answer is reused for another).
    const now = Date.now();
    const appointments = Array.from({ length: APPOINTMENTS }, (_, i) => ({
      external_id: `kc-${String(i).padStart(5, '0')}`,
      starts_at: new Date(now + 2 * HOUR_MS + Math.floor((i * 18 * HOUR_MS) / APPOINTMENTS)),
      status: 'booked',
      patient: { first_name: `Check${i}`, last_name: 'Visit', dob: '1980-02-03', zipcode: '78701' },
      insurer_code: DEMO,
    }));
    const sync = await call(svc.base, stage.key, 'POST', '/api/auth/v1/appointments/sync/', {
      from: new Date(now + HOUR_MS).toISOString(),
      to: new Date(now + 21 * HOUR_MS).toISOString(),
      appointments,
    });
    const created = sync.status === 200 ? Number(sync.body.created) : 0;
    if (sync.status !== 200 || created !== APPOINTMENTS)
      throw new Error(`sync: ${sync.status} ${JSON.stringify(sync.body).slice(0, 500)}`);

    // The kill: as soon as some checks are answered (the sync kicked the checks loop).
    const seen = await waitFor(
      'a first check answered',
      async () => {
        const c = await counts();
        return c.answered > 0 ? c : null;
      },
      60_000,
      20,
    );
    const killedAt = Date.now();
    await svc.kill9();
    const atKill = await counts();
    await svc.start();
    const restartedAt = Date.now();

    const problems: string[] = [];
    try {
      await waitFor(
        'every appointment answered, no check processing, every check delivered',
        async () => {
          const c = await counts();
          if (c.answered !== APPOINTMENTS || c.processing !== 0) return false;
          const delivered = stage.receiver.uidsDelivered();
          return (await checkUids()).every((uid) => delivered.has(uid));
        },
        SETTLE_MS,
        500,
      );
    } catch (e) {
      problems.push((e as Error).message);
    }
    const end = await counts();
    const uids = await checkUids();
    const receivedUids = stage.receiver.uidsDelivered();
    const delivered = uids.filter((uid) => receivedUids.has(uid)).length;
    const [links] = await stage.query<{ distinct_uids: number; unmatched: number; failed: number }>(
      `SELECT count(DISTINCT a.check_request_uid)::int AS distinct_uids,
              count(*) FILTER (WHERE r.id IS NULL)::int AS unmatched,
              count(*) FILTER (WHERE a.coverage_state = 'failed')::int AS failed
       FROM appointments a
       LEFT JOIN eligibility_requests r ON r.account_id = a.account_id
         AND r.uid = a.check_request_uid AND r.origin = 'appointment'
       WHERE a.account_id = $1`,
      [stage.accountId],
    );
    const states = await stage.query<{ state: string; n: number }>(
      `SELECT coverage_state AS state, count(*)::int AS n FROM appointments
       WHERE account_id = $1 GROUP BY 1 ORDER BY 1`,
      [stage.accountId],
    );
    const [{ n: processingAnywhere }] = await stage.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM eligibility_requests WHERE status = 'processing'",
    );
    const [{ slowest }] = await stage.query<{ slowest: number }>(
      `SELECT (extract(epoch FROM max(completed_at)) * 1000)::float8 AS slowest
       FROM eligibility_requests WHERE account_id = $1 AND origin = 'appointment'`,
      [stage.accountId],
    );

    if (atKill.answered >= APPOINTMENTS)
      problems.push('every check was answered before the kill: the scenario did not test it');
    if (end.answered !== APPOINTMENTS)
      problems.push(
        `${APPOINTMENTS - end.answered} appointments not answered (${end.notChecked} not_checked, ${end.checking} checking)`,
      );
    if (end.requests !== APPOINTMENTS)
      problems.push(
        `${end.requests} check requests of origin appointment for ${APPOINTMENTS} appointments (${end.requests < APPOINTMENTS ? 'lost' : 'doubled'})`,
      );
    if (links.distinct_uids !== APPOINTMENTS || links.unmatched > 0)
      problems.push(
        `${links.distinct_uids} distinct check requests named by the appointments, ${links.unmatched} naming none of origin appointment`,
      );
    if (links.failed > 0)
      problems.push(`${links.failed} checks answered failed (the sandbox answers each patient)`);
    if (delivered < uids.length)
      problems.push(`${uids.length - delivered} check requests' webhooks never delivered`);
    if (processingAnywhere > 0)
      problems.push(`${processingAnywhere} requests still processing at the end`);

    return {
      scenario: stage.name,
      sent: APPOINTMENTS,
      accepted: created,
      completed: end.answered,
      delivered,
      // An appointment left unanswered, or a check whose webhook never came.
      lost: APPOINTMENTS - end.answered + (uids.length - delivered),
      seconds: Math.round((Date.now() - started) / 1000),
      notes: [
        `${APPOINTMENTS} appointments synced (on_booking); kill -9 ${killedAt - started} ms into the scenario, when ${seen.answered} checks were answered (seen by a poll)`,
        `at the kill: ${atKill.answered} answered, ${atKill.checking} checking, ${atKill.notChecked} not_checked; ${atKill.requests} check requests stored, ${atKill.processing} processing`,
        `restart took ${((restartedAt - killedAt) / 1000).toFixed(1)} s; the last check finished ${((Number(slowest) - restartedAt) / 1000).toFixed(1)} s after it`,
        `at the end: ${end.answered} answered, ${end.requests} check requests (${links.distinct_uids} distinct, one per appointment), ${processingAnywhere} processing; states ${states.map((s) => `${s.state} ${s.n}`).join(', ')}`,
      ],
      problems,
    };
  } finally {
    await stage.close();
  }
}
