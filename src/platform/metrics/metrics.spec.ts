import fc from 'fast-check';
import { AggregatorRegistry } from 'prom-client';
import { KNOWN_INSURER_CODES } from '@/lib/insurer-codes';
import {
  CALL_OUTCOMES,
  DELIVERY_OUTCOMES,
  SEARCH_OUTCOMES,
  SEARCH_PATHS,
  statusClass,
  TASK_STATES,
  TRANSPORTS,
} from './metric-labels';
import { Metrics } from './metrics';

/** label name → the values it may take (docs/architecture.md, What operators see). */
const ALLOWED: Record<string, readonly string[]> = {
  insurer: [...KNOWN_INSURER_CODES, 'other'],
  transport: [...TRANSPORTS, 'other'],
  path: [...SEARCH_PATHS, 'other'],
  state: [...TASK_STATES, 'other'],
};
const OUTCOMES = new Set([...CALL_OUTCOMES, ...SEARCH_OUTCOMES, ...DELIVERY_OUTCOMES, 'other']);

function labelsOf(text: string): { name: string; labels: [string, string][] }[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, name, labels] = /^(\w+)(?:\{(.*)\})? /.exec(l)!;
      return {
        name,
        labels: [...(labels ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(
          (m) => [m[1], m[2]] as [string, string],
        ),
      };
    });
}

describe('Metrics', () => {
  it('keeps every label within its set, whatever the callers pass (property)', async () => {
    const anyText = fc.oneof(fc.string(), fc.constantFrom(...KNOWN_INSURER_CODES, 'found'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            insurer: anyText,
            outcome: anyText,
            path: anyText,
            transport: anyText,
            state: anyText,
            seconds: fc.double({ min: 0, max: 1e5, noNaN: true }),
          }),
          { maxLength: 30 },
        ),
        async (calls) => {
          const m = new Metrics(true);
          for (const c of calls) {
            m.searchFinished(c.insurer, c.outcome, c.path, c.seconds);
            m.insurerCall(c.insurer, c.transport, c.outcome, c.seconds);
            m.webhookAttempt(c.outcome);
          }
          m.setOpenTasks(
            calls.map((c) => ({ insurer: c.insurer, state: c.state, count: 1 })),
            calls.length,
          );
          const own = labelsOf(await m.prom!.text()).filter(
            (s) => !s.name.startsWith('nodejs_') && !s.name.startsWith('process_'),
          );
          for (const s of own)
            for (const [label, value] of s.labels) {
              if (label === 'le') continue;
              if (label === 'outcome') expect(OUTCOMES.has(value)).toBe(true);
              else expect(ALLOWED[label]).toContain(value);
            }
          // Bounded: at most one series per combination of allowed values.
          const tasks = own.filter((s) => s.name === 'verification_tasks_open');
          expect(tasks.length).toBeLessThanOrEqual(ALLOWED.insurer.length * TASK_STATES.length);
          // Every open task is counted once, whatever label it fell under.
          const text = await m.prom!.text();
          const open = [...text.matchAll(/^verification_tasks_open\{.*\} (\d+)$/gm)];
          expect(open.reduce((n, x) => n + Number(x[1]), 0)).toBe(calls.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('sums the open tasks of codes that share a label', async () => {
    const m = new Metrics(true);
    m.setOpenTasks(
      [
        { insurer: 'insurer:x:one', state: 'queued', count: 2 },
        { insurer: 'insurer:x:two', state: 'queued', count: 3 },
        { insurer: 'insurer:vision:vsp', state: 'queued', count: 1 },
      ],
      4,
    );
    const text = await m.prom!.text();
    expect(text).toContain('verification_tasks_open{insurer="other",state="queued"} 5');
    expect(text).toContain(
      'verification_tasks_open{insurer="insurer:vision:vsp",state="queued"} 1',
    );
    expect(text).toContain('verification_tasks_overdue 4');
  });

  it('records nothing and loads no prom-client when METRICS_PORT is unset', () => {
    const m = new Metrics(false);
    expect(m.prom).toBeNull();
    m.searchFinished('insurer:demo:vision', 'found', 'electronic', 1);
    m.insurerCall('insurer:demo:vision', 'sandbox', 'found', 1);
    m.webhookAttempt('succeeded');
    m.setQueues([{ queue: 'mail', due: 1, oldest: 2 }]);
    m.setProcesses([{ role: 'all', live: 1 }]);
    m.addSource('queues', () => Promise.reject(new Error('never read')));
    expect(m.prom).toBeNull();
  });

  it('sets the queue and process gauges from rows, a negative age read as 0', async () => {
    const m = new Metrics(true);
    m.setQueues([{ queue: 'mail', due: 2, oldest: -1 }]);
    m.setProcesses([{ role: 'worker', live: 3 }]);
    const text = await m.prom!.text();
    expect(text).toContain('queue_jobs_due{queue="mail"} 2');
    expect(text).toContain('queue_oldest_due_age_seconds{queue="mail"} 0');
    expect(text).toContain('service_processes_live{role="worker"} 3');
  });

  it('reads each database source once per scrape, and empties the gauges of one that fails', async () => {
    const m = new Metrics(true);
    let queueReads = 0;
    let fail = false;
    m.addSource('queues', async () => {
      queueReads++;
      m.prom!.queueDue.set({ queue: 'mail' }, 3);
      m.prom!.queueOldestDue.set({ queue: 'mail' }, 12);
    });
    m.addSource('verification', async () => {
      if (fail) throw new Error('database down');
      m.setOpenTasks([{ insurer: 'insurer:vision:vsp', state: 'queued', count: 2 }], 1);
    });
    const first = await m.prom!.text();
    expect(queueReads).toBe(1);
    expect(first).toContain('queue_jobs_due{queue="mail"} 3');
    expect(first).toContain('verification_tasks_overdue 1');
    fail = true;
    await new Promise((r) => setImmediate(r));
    const second = await m.prom!.text();
    expect(queueReads).toBe(2);
    expect(second).toContain('queue_oldest_due_age_seconds{queue="mail"} 12');
    // A labelled gauge shows nothing; one without labels reads 0 (prom-client's default), which
    // the supervisor's `max` never prefers to another process's reading.
    expect(second).not.toMatch(/^verification_tasks_open\{/m);
    expect(second).toMatch(/^verification_tasks_overdue 0$/m);
  });

  it('adds counters over processes and takes the largest of the database gauges', async () => {
    const [a, b] = [new Metrics(true), new Metrics(true)];
    for (const [m, due] of [
      [a, 7],
      [b, 7],
    ] as const) {
      m.addSource('queues', async () => {
        m.prom!.queueDue.set({ queue: 'mail' }, due);
      });
      m.webhookAttempt('succeeded');
    }
    const merged = AggregatorRegistry.aggregate([
      await a.prom!.registry.getMetricsAsJSON(),
      await b.prom!.registry.getMetricsAsJSON(),
    ]);
    const text = await merged.metrics();
    expect(text).toContain('webhook_deliveries_total{outcome="succeeded"} 2');
    expect(text).toContain('queue_jobs_due{queue="mail"} 7');
  });

  it('names status classes', () => {
    expect([200, 204, 301, 404, 503, 99, 600].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '5xx',
      'other',
      'other',
    ]);
  });
});
