/**
 * Scenario 8 (docs/api.md, Appointments): appointment checks falling due together while single
 * searches run at a steady rate. Figures: the singles' POST and GET p99 while the checks run
 * against the same stream alone just before, and the time until every check is answered against
 * a batch of as many items (POST .../eligibility/batches/) in the same run. Driven from the
 * orchestrator (bench/run.ts) through Api and the bench's database connection.
 */
import type { Client } from 'pg';
import type { Api } from './lib/api';
import {
  DAY_MS,
  loopPassed,
  putPolicy,
  SYNC,
  type SyncAnswer,
  syncBody,
  windowAt,
} from './lib/appointments';
import { sleep } from './lib/proc';
import { ms, ratio, row, Row, secs } from './lib/report';
import { runSingles, type SinglesFigures, type SinglesRun, within } from './lib/singles';

export interface ChecksSizes {
  checks: number;
  /** Single searches started per second, throughout. */
  rate: number;
  /** How long the singles run alone first (the reference). */
  aloneSec: number;
}

export interface ChecksFigures extends ChecksSizes {
  alone: SinglesFigures;
  duringChecks: SinglesFigures;
  duringBatch: SinglesFigures;
  /** From the policy that made them due (its PUT sent) to the first check stored, and to the last answered. */
  pickupMs: number;
  dueToAnsweredMs: number;
  /** From the first check stored to the last answered: the checks' own work. */
  checksMs: number;
  /** From the batch's POST sent to its last item finished. */
  batchMs: number;
  states: Record<string, number>;
  requests: { total: number; complete: number; error: number };
  maxLagMs: number;
  problems: string[];
}

const PATIENT = { last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' };

interface Finished {
  total: number;
  processing: number;
  error: number;
  first: Date | null;
  last: Date | null;
}

/** The account's requests matching `which` (an SQL condition on `r`): how many, finished when. */
async function requests(db: Client, accountId: string, which: string): Promise<Finished> {
  const { rows } = await db.query<Finished>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'processing')::int AS processing,
            count(*) FILTER (WHERE status = 'error')::int AS error,
            min(created_at) AS first, max(completed_at) AS last
     FROM eligibility_requests r WHERE account_id = $1 AND ${which}`,
    [accountId],
  );
  return rows[0];
}

/** Polls `done` every 100 ms, bounded. */
async function until(what: string, done: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** `work` while single searches run at the scenario's rate; the stream stops when it resolves. */
async function withSingles<T>(
  api: Api,
  c: ChecksSizes,
  prefix: string,
  work: () => Promise<T>,
): Promise<[T, SinglesRun]> {
  let stopped = false;
  const stream = runSingles(api, c.rate, prefix, () => stopped);
  // Handled now (a failing single must not crash the run meanwhile); awaited below.
  stream.catch(() => undefined);
  try {
    const result = await work();
    stopped = true;
    return [result, await stream];
  } finally {
    stopped = true;
    await stream.catch(() => undefined);
  }
}

export async function runChecksScenario(
  api: Api,
  db: Client,
  accountId: string,
  c: ChecksSizes,
): Promise<ChecksFigures> {
  const problems: string[] = [];
  // Set up: visits 2 to 28 days away under a policy that checks an hour before only: the
  // loop's pass after the sync finds none due.
  await putPolicy(api, false);
  const sync = await api.expect<SyncAnswer>(
    200,
    'POST',
    SYNC,
    syncBody('chk', c.checks, windowAt(new Date(Date.now() + DAY_MS), 28)),
  );
  if (sync.created !== c.checks || sync.errors.length > 0)
    throw new Error(`sync: ${JSON.stringify(sync).slice(0, 300)}`);
  await loopPassed(db, accountId);
  const early = await requests(db, accountId, `origin = 'appointment'`);
  if (early.total > 0) problems.push(`${early.total} checks ran before the policy made them due`);

  // The reference: the singles alone.
  const [, alone] = await withSingles(api, c, 'Alone', () => sleep(c.aloneSec * 1000));

  // Every appointment due at once: the policy now checks on booking, and a new policy has the
  // loop look at every visit to come at once (its PUT sets next_check_at = now() for them all).
  // The UPDATE alone would not do: under the first policy the loop looks at a visit whose point
  // has not passed and checks nothing (check-schedule.ts, decide).
  const timeoutMs = Math.max(120_000, c.checks * 100);
  let due = 0;
  const [checks, duringChecks] = await withSingles(api, c, 'Checks', async () => {
    await sleep(1_000);
    due = Date.now();
    await putPolicy(api, true);
    await until(
      `${c.checks} checks answered`,
      async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM appointments WHERE account_id = $1
             AND coverage_state NOT IN ('not_checked', 'checking')`,
            [accountId],
          )
        ).rows[0].n === c.checks,
      timeoutMs,
    );
    return requests(db, accountId, `origin = 'appointment'`);
  });

  // A batch of as many items, with the same singles meanwhile.
  const uid = `bench-checks-batch-${Date.now()}`;
  let posted = 0;
  const [batch, duringBatch] = await withSingles(api, c, 'Batch', async () => {
    await sleep(1_000);
    posted = Date.now();
    await api.expect(201, 'POST', '/api/auth/v1/eligibility/batches/', {
      batch_uid: uid,
      items: Array.from({ length: c.checks }, (_, i) => ({
        insurer_code: 'insurer:demo:vision',
        request_uid: `${uid}-${i}`,
        patient: { ...PATIENT, first_name: `Batch${i}`, member_id: `MB${i}` },
      })),
    });
    const items = () => requests(db, accountId, 'batch_id IS NOT NULL');
    await until(
      `the batch of ${c.checks}`,
      async () => {
        const b = await items();
        return b.total === c.checks && b.processing === 0;
      },
      timeoutMs,
    );
    return items();
  });

  const { rows: stateRows } = await db.query<{ state: string; n: number }>(
    `SELECT coverage_state AS state, count(*)::int AS n FROM appointments WHERE account_id = $1 GROUP BY 1`,
    [accountId],
  );
  const states = Object.fromEntries(stateRows.map((r) => [r.state, r.n]));
  if (checks.total !== c.checks)
    problems.push(`${checks.total} check requests for ${c.checks} appointments`);
  if (checks.error + (states.failed ?? 0) > 0)
    problems.push(`${checks.error} checks ended in error, ${states.failed ?? 0} answered failed`);
  if (batch.error > 0) problems.push(`${batch.error} batch items ended in error`);
  const first = checks.first!.getTime();
  const last = checks.last!.getTime();
  return {
    ...c,
    alone: within(alone, 0, Infinity),
    duringChecks: within(duringChecks, first, last),
    duringBatch: within(duringBatch, posted, batch.last!.getTime()),
    pickupMs: first - due,
    dueToAnsweredMs: last - due,
    checksMs: last - first,
    batchMs: batch.last!.getTime() - posted,
    states,
    requests: {
      total: checks.total,
      complete: checks.total - checks.error - checks.processing,
      error: checks.error,
    },
    maxLagMs: Math.max(alone.maxLagMs, duringChecks.maxLagMs, duringBatch.maxLagMs),
    problems,
  };
}

export function checksRows(f: ChecksFigures): Row[] {
  const sc = `8 ${f.checks.toLocaleString('en')} checks due at once, ${f.rate} singles/s`;
  const post = f.duringChecks.post.p99 / f.alone.post.p99;
  const get = f.duringChecks.get.p99 / f.alone.get.p99;
  const work = f.checksMs / f.batchMs;
  const n = (s: SinglesFigures) => `${s.post.count} POSTs, ${s.get.count} GETs`;
  return [
    row(
      sc,
      'single POST p99 with checks vs without',
      `${ms(f.duringChecks.post.p99)} / ${ms(f.alone.post.p99)} = ${ratio(post)} (${n(f.duringChecks)} vs ${n(f.alone)})`,
      '≤ 2×',
      post <= 2,
    ),
    row(
      sc,
      'single GET p99 with checks vs without',
      `${ms(f.duringChecks.get.p99)} / ${ms(f.alone.get.p99)} = ${ratio(get)}`,
      '≤ 2×',
      get <= 2,
    ),
    row(
      sc,
      'checks: first stored → all answered vs a batch of as many',
      `${secs(f.checksMs / 1000)} / ${secs(f.batchMs / 1000)} = ${ratio(work)}`,
      '≤ 1.2×',
      work <= 1.2,
    ),
    row(
      sc,
      'checks: due (policy PUT) → all answered',
      `${secs(f.dueToAnsweredMs / 1000)} (the loop took them up after ${secs(f.pickupMs / 1000)}: its 10 s tick) = ${ratio(f.dueToAnsweredMs / f.batchMs)} the batch`,
      'context',
      null,
    ),
    row(
      sc,
      'single POST / GET p99 during the batch',
      `${ms(f.duringBatch.post.p99)} / ${ms(f.duringBatch.get.p99)} (${n(f.duringBatch)})`,
      'context',
      null,
    ),
    row(
      sc,
      'singles started late (largest lag behind the steady rate)',
      ms(f.maxLagMs),
      'context',
      null,
    ),
    row(
      sc,
      'appointments answered (states); checks complete / error',
      `${Object.entries(f.states)
        .map(([s, k]) => `${s} ${k}`)
        .join(', ')}; ${f.requests.complete} / ${f.requests.error}`,
      'all answered',
      f.problems.length === 0,
    ),
  ];
}
