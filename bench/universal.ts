/**
 * Scenario 10 (docs/api.md, Universal Search insurer by insurer): how soon a Universal Search is
 * `complete`. Three kinds of search, taken in turns one at a time so the machine's state weighs on
 * each alike, each timed from its POST sent to the first GET that answers `complete` (every kind
 * polled the same way):
 *   - sandbox: the sandbox alone (the reference);
 *   - universal: the sandbox, VSP and EyeMed with `wait_for: "electronic"`: the sandbox finds the
 *     plan, VSP and EyeMed are `not_asked` and no person is asked;
 *   - reused: VSP alone for a member a verifier answered earlier: complete from that answer.
 * Figures: p50 and p90 of each; p50 ratios universal / sandbox (target ≤ 1.5×) and reused /
 * sandbox (≤ 2×). Driven from the orchestrator (bench/run.ts) through Api.
 */
import type { Api } from './lib/api';
import { sleep } from './lib/proc';
import { ms, ratio, row, type Row } from './lib/report';
import { type Latency, summarize } from './lib/stats';

const DEMO = 'insurer:demo:vision';
const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';
const TASKS = '/api/auth/v1/verification-tasks/';
/** The same polling for every kind: the figures compare the service's work, not the client's. */
const POLL_MS = 5;

type Json = Record<string, any>;

export interface UniversalSizes {
  /** Searches of each kind. */
  rounds: number;
}

export interface UniversalFigures extends UniversalSizes {
  sandbox: Latency;
  universal: Latency;
  reused: Latency;
  /** p50 ratios to the sandbox search's. */
  universalRatio: number;
  reusedRatio: number;
  problems: string[];
}

const patient = (last: string, over: Json = {}) => ({
  first_name: 'Maria',
  last_name: last,
  dob: '1984-06-15',
  zipcode: '78701',
  ...over,
});

/** Polls the V2 answer until it is no longer `processing`; bounded. */
async function answer(api: Api, uid: string, timeoutMs = 30_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await api.expect<Json>(200, 'GET', `/api/auth/v2/eligibility/${uid}/`);
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`${uid}: still processing after ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}

/** POST `body`, then poll until complete: the milliseconds between, and the answer. */
async function timed(api: Api, body: Json): Promise<{ ms: number; answer: Json }> {
  const started = performance.now();
  const { request_uid: uid } = await api.expect<{ request_uid: string }>(
    201,
    'POST',
    '/api/auth/v1/eligibility/',
    body,
  );
  const got = await answer(api, uid);
  return { ms: performance.now() - started, answer: got };
}

/** A VSP member whose plan a verifier answered: later searches of them are reused answers. */
async function answeredMember(api: Api, demoPlan: Json): Promise<Json> {
  const holder = patient('Reuse', { first_name: 'Rosa', member_id: 'VSPBENCH1' });
  const { request_uid: uid } = await api.expect<{ request_uid: string }>(
    201,
    'POST',
    '/api/auth/v1/eligibility/',
    { insurer_code: VSP, patient: holder },
  );
  const deadline = Date.now() + 30_000;
  let taskId: string | undefined;
  while (!taskId) {
    const body = await api.expect<Json>(200, 'GET', `/api/auth/v2/eligibility/${uid}/`);
    taskId = body.verification?.task_id;
    if (!taskId && Date.now() > deadline) throw new Error('the VSP task did not open in 30 s');
    if (!taskId) await sleep(50);
  }
  await api.expect(200, 'POST', `${TASKS}${taskId}/complete/`, {
    plans: [{ ...demoPlan, insurer_code: VSP, persons: [{ plan: demoPlan.persons[0].plan }] }],
    evidence: { source: 'portal', checked_at: new Date().toISOString() },
  });
  const done = await answer(api, uid);
  if (done.status !== 'complete' || done.results.length !== 1)
    throw new Error(`the answered VSP search: ${JSON.stringify(done).slice(0, 300)}`);
  return holder;
}

export async function runUniversalScenario(api: Api, c: UniversalSizes): Promise<UniversalFigures> {
  const problems: string[] = [];
  // Warm-up, and the plan a verifier copies from the sandbox's answer.
  const warm = await timed(api, { insurer_code: DEMO, patient: patient('Warm') });
  const holder = await answeredMember(api, warm.answer.results[0]);
  await timed(api, {
    insurer_code_list: [DEMO, VSP, EYEMED],
    wait_for: 'electronic',
    patient: patient('Warm'),
  });

  const samples = { sandbox: [] as number[], universal: [] as number[], reused: [] as number[] };
  for (let i = 0; i < c.rounds; i++) {
    // A person of their own per round: nothing but the reused kind may find an earlier answer.
    const sandbox = await timed(api, { insurer_code: DEMO, patient: patient(`Sandbox${i}`) });
    samples.sandbox.push(sandbox.ms);
    if (sandbox.answer.status !== 'complete')
      problems.push(`sandbox ${i}: ${sandbox.answer.status}`);

    const universal = await timed(api, {
      insurer_code_list: [DEMO, VSP, EYEMED],
      wait_for: 'electronic',
      patient: patient(`Universal${i}`),
    });
    samples.universal.push(universal.ms);
    const states = (universal.answer.insurers ?? []).map((x: Json) => x.state).join(',');
    if (universal.answer.status !== 'complete' || states !== 'found,not_asked,not_asked')
      problems.push(`universal ${i}: ${universal.answer.status} (${states})`);

    const reused = await timed(api, { insurer_code: VSP, patient: holder });
    samples.reused.push(reused.ms);
    if (
      reused.answer.status !== 'complete' ||
      reused.answer.insurers?.[0]?.verification?.reused !== true
    )
      problems.push(`reused ${i}: ${reused.answer.status}, not a reused answer`);
  }
  // No person was asked for a Universal Search: the only task is the member's first one.
  const tasks = await api.expect<{ result: Json[] }>(200, 'GET', `${TASKS}?limit=200`);
  if (tasks.result.length !== 1) problems.push(`${tasks.result.length} tasks opened, expected 1`);

  const sandbox = summarize(samples.sandbox);
  const universal = summarize(samples.universal);
  const reused = summarize(samples.reused);
  return {
    ...c,
    sandbox,
    universal,
    reused,
    universalRatio: universal.p50 / sandbox.p50,
    reusedRatio: reused.p50 / sandbox.p50,
    problems,
  };
}

export function universalRows(f: UniversalFigures): Row[] {
  const sc = '10 universal';
  const both = (l: Latency) => `${ms(l.p50)} (p90 ${ms(l.p90)})`;
  return [
    row(sc, `sandbox search to complete, p50 (${f.rounds} each)`, both(f.sandbox), '', null),
    row(sc, 'Universal Search (wait_for electronic) to complete, p50', both(f.universal), '', null),
    row(sc, 'reused assisted answer to complete, p50', both(f.reused), '', null),
    row(
      sc,
      'Universal Search / sandbox (p50)',
      ratio(f.universalRatio),
      '≤ 1.5×',
      f.universalRatio <= 1.5,
    ),
    row(sc, 'reused answer / sandbox (p50)', ratio(f.reusedRatio), '≤ 2×', f.reusedRatio <= 2),
  ];
}
