/**
 * Scenario 7 (docs/api.md, Batches): a batch of sandbox checks, and single checks meanwhile. Figures: the
 * time to accept the batch (the POST), the time until its last item finished, its throughput,
 * and the latency of single checks (POST until the result is no longer `processing`) started one
 * after another while the batch runs. Driven from the orchestrator (bench/run.ts) through Api.
 */
import type { Api } from './lib/api';
import { ms, perSec, row, Row, secs } from './lib/report';
import { Latency, summarize } from './lib/stats';

const PATIENT = { last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' };

export interface BatchFigures {
  items: number;
  acceptMs: number;
  finishMs: number;
  itemsPerSec: number;
  singles: Latency & { count: number };
  counts: { processing: number; complete: number; error: number };
}

interface BatchBody {
  status: string;
  counts: { processing: number; complete: number; error: number };
}

export async function runBatchScenario(api: Api, items: number): Promise<BatchFigures> {
  const uid = `bench-batch-${Date.now()}`;
  const body = {
    batch_uid: uid,
    items: Array.from({ length: items }, (_, i) => ({
      insurer_code: 'insurer:demo:vision',
      request_uid: `${uid}-${i}`,
      patient: { ...PATIENT, first_name: `Batch${i}`, member_id: `M${i}` },
    })),
  };
  const t0 = performance.now();
  await api.expect(201, 'POST', '/api/auth/v1/eligibility/batches/', body);
  const acceptMs = performance.now() - t0;

  let finished: BatchBody | null = null;
  let finishMs = NaN;
  // Polls the batch in the background while singles are timed in the foreground.
  const watcher = (async () => {
    for (;;) {
      const b = await api.expect<BatchBody>(200, 'GET', `/api/auth/v1/eligibility/batches/${uid}/`);
      if (b.status === 'complete') {
        finishMs = performance.now() - t0;
        finished = b;
        return;
      }
      if (performance.now() - t0 > 30 * 60_000)
        throw new Error('the batch did not finish in 30 min');
      await sleep(200);
    }
  })();

  const latencies: number[] = [];
  for (let i = 0; finished === null; i++) {
    const s0 = performance.now();
    const { request_uid } = await api.expect<{ request_uid: string }>(
      201,
      'POST',
      '/api/auth/v1/eligibility/',
      { insurer_code: 'insurer:demo:vision', patient: { ...PATIENT, first_name: `Single${i}` } },
    );
    for (let polls = 0; ; polls++) {
      const r = await api.expect<{ status: string }>(
        200,
        'GET',
        `/api/auth/v1/eligibility/${request_uid}/`,
      );
      if (r.status !== 'processing') break;
      if (polls > 6_000) throw new Error(`single ${request_uid} did not finish in a minute`);
      await sleep(10);
    }
    // Only singles that ran entirely while the batch was running count.
    if (finished === null) latencies.push(performance.now() - s0);
    await sleep(100);
  }
  await watcher;
  const done = finished as BatchBody | null;
  return {
    items,
    acceptMs,
    finishMs,
    itemsPerSec: items / (finishMs / 1000),
    singles: { ...summarize(latencies), count: latencies.length },
    counts: done!.counts,
  };
}

export function batchRows(f: BatchFigures): Row[] {
  const sc = `7 batch of ${f.items.toLocaleString('en')}`;
  const allDone = f.counts.processing === 0 && f.counts.complete + f.counts.error === f.items;
  return [
    row(sc, 'time to accept (POST)', ms(f.acceptMs), '≤ 3 s', f.acceptMs <= 3_000),
    row(
      sc,
      'time to finish',
      `${secs(f.finishMs / 1000)} (${perSec(f.itemsPerSec)})`,
      'context',
      null,
    ),
    row(
      sc,
      'single check meanwhile, p99 (p50)',
      `${ms(f.singles.p99)} (${ms(f.singles.p50)}; ${f.singles.count} checks)`,
      '≤ 1 s',
      f.singles.p99 <= 1_000,
    ),
    row(
      sc,
      'items complete / error',
      `${f.counts.complete} / ${f.counts.error}`,
      'all finished',
      allDone,
    ),
  ];
}

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));
