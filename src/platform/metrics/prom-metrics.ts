import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
} from 'prom-client';
import {
  CALL_OUTCOMES,
  DELIVERY_OUTCOMES,
  insurerLabel,
  oneOf,
  POOL_STATES,
  SEARCH_OUTCOMES,
  SEARCH_PATHS,
  TASK_STATES,
  TRANSPORTS,
} from './metric-labels';

/** docs/architecture.md, What operators see: HTTP buckets (OpenTelemetry's advice). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Insurer calls and searches: past CAQH CORE's 20 s, up to a gateway's 110 s timeout. */
const INSURER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20, 30, 60, 110];
/** Searches a person answers end after hours. */
const SEARCH_BUCKETS = [...INSURER_BUCKETS, 300, 1800, 3600, 14_400, 86_400];

/**
 * Figures read from the database at scrape time (queues, tasks, processes). Each source sets its
 * gauges, or throws: its gauges are then left empty for this scrape (never stale values).
 */
export type GaugeSource = () => Promise<void>;

/**
 * The prom-client side of `Metrics`, loaded only when METRICS_PORT is set; one registry per app.
 * The cluster's supervisor sums counters and histograms over processes; database gauges are the
 * same in every process, so they carry the `max` aggregator (one value, not one per process).
 */
export class PromMetrics {
  readonly registry = new Registry();
  private readonly sources: { name: string; read: GaugeSource }[] = [];
  private reading: Promise<void> | null = null;
  private poolReader: (() => Record<(typeof POOL_STATES)[number], number> | null) | null = null;

  readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly searches: Counter<'insurer' | 'outcome'>;
  private readonly searchDuration: Histogram<'insurer' | 'path'>;
  private readonly insurerDuration: Histogram<'insurer' | 'transport' | 'outcome'>;
  private readonly deliveries: Counter<'outcome'>;
  readonly queueDue: Gauge<'queue'>;
  readonly queueOldestDue: Gauge<'queue'>;
  readonly tasksOpen: Gauge<'insurer' | 'state'>;
  readonly tasksOverdue: Gauge;
  readonly processesLive: Gauge<'role'>;
  readonly poolConnections: Gauge<'state'>;

  constructor() {
    const registers = [this.registry];
    const histogram = <L extends string>(
      name: string,
      help: string,
      labelNames: L[],
      buckets: number[],
    ) => new Histogram<L>({ name, help, labelNames, buckets, registers });
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    this.httpDuration = histogram(
      'http_server_request_duration_seconds',
      'HTTP requests served, by method, route template and status class.',
      ['method', 'route', 'status_class'],
      HTTP_BUCKETS,
    );
    this.searches = counter(
      'eligibility_searches_total',
      'Eligibility searches finished, per insurer asked, by its state at the end.',
      ['insurer', 'outcome'],
    );
    this.searchDuration = histogram(
      'eligibility_search_duration_seconds',
      'From a request accepted to its search finished, per insurer and path.',
      ['insurer', 'path'],
      SEARCH_BUCKETS,
    );
    this.insurerDuration = histogram(
      'insurer_request_duration_seconds',
      'Calls to insurers, by insurer, transport and outcome.',
      ['insurer', 'transport', 'outcome'],
      INSURER_BUCKETS,
    );
    this.deliveries = counter(
      'webhook_deliveries_total',
      'Automatic webhook attempts, by what followed: succeeded, retrying, failed (given up).',
      ['outcome'],
    );
    const dbGauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers,
        aggregator: 'max',
        collect: () => this.readSources(),
      });
    this.queueDue = dbGauge('queue_jobs_due', 'Jobs due now and not running, per queue.', [
      'queue',
    ]);
    this.queueOldestDue = dbGauge(
      'queue_oldest_due_age_seconds',
      'How long the oldest due job has waited, per queue (0: none due).',
      ['queue'],
    );
    this.tasksOpen = dbGauge(
      'verification_tasks_open',
      'Verification tasks not answered yet, by insurer and state.',
      ['insurer', 'state'],
    );
    this.tasksOverdue = dbGauge(
      'verification_tasks_overdue',
      'Open verification tasks past their due time.',
      [],
    );
    this.processesLive = dbGauge(
      'service_processes_live',
      'Processes whose heartbeat is current, by role (all, api, worker).',
      ['role'],
    );
    this.poolConnections = new Gauge({
      name: 'db_pool_connections',
      help: "This process's PostgreSQL pool connections, by state (waiting: clients queued for one).",
      labelNames: ['state'],
      registers,
      collect: () => {
        const counts = this.poolReader?.();
        if (!counts) return;
        for (const state of POOL_STATES) this.poolConnections.set({ state }, counts[state]);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** A database figure for the scrape (module start-up; the source's gauges are its own). */
  addSource(name: string, read: GaugeSource): void {
    this.sources.push({ name, read });
  }

  /** The pool's counts, read at each scrape (src/platform/db binds it). */
  readPool(reader: () => Record<(typeof POOL_STATES)[number], number> | null): void {
    this.poolReader = reader;
  }

  /** One insurer of a finished search: its state at the end, and how long the search took. */
  searchFinished(insurer: string, outcome: string, path: string, seconds: number | null): void {
    const code = insurerLabel(insurer);
    this.searches.inc({ insurer: code, outcome: oneOf(outcome, SEARCH_OUTCOMES) });
    if (seconds !== null)
      this.searchDuration.observe({ insurer: code, path: oneOf(path, SEARCH_PATHS) }, seconds);
  }

  insurerCall(insurer: string, transport: string, outcome: string, seconds: number): void {
    this.insurerDuration.observe(
      {
        insurer: insurerLabel(insurer),
        transport: oneOf(transport, TRANSPORTS),
        outcome: oneOf(outcome, CALL_OUTCOMES),
      },
      seconds,
    );
  }

  webhookAttempt(outcome: string): void {
    this.deliveries.inc({ outcome: oneOf(outcome, DELIVERY_OUTCOMES) });
  }

  /** The open verification tasks of every account, by insurer and state, and the overdue ones. */
  setOpenTasks(rows: { insurer: string; state: string; count: number }[], overdue: number): void {
    const sums = new Map<string, { insurer: string; state: string; value: number }>();
    for (const r of rows) {
      const insurer = insurerLabel(r.insurer);
      const state = oneOf(r.state, TASK_STATES);
      const key = `${insurer} ${state}`;
      const sum = sums.get(key) ?? { insurer, state, value: 0 };
      sum.value += r.count;
      sums.set(key, sum);
    }
    setRows(
      this.tasksOpen,
      [...sums.values()].map(({ insurer, state, value }) => ({
        labels: { insurer, state },
        value,
      })),
    );
    this.tasksOverdue.set(overdue);
  }

  /** Jobs due and the oldest due job's age, per queue. */
  setQueues(rows: { queue: string; due: number; oldest: number }[]): void {
    setRows(
      this.queueDue,
      rows.map((r) => ({ labels: { queue: r.queue }, value: r.due })),
    );
    setRows(
      this.queueOldestDue,
      rows.map((r) => ({ labels: { queue: r.queue }, value: Math.max(0, r.oldest) })),
    );
  }

  /** Processes with a current heartbeat, per role. */
  setProcesses(rows: { role: string; live: number }[]): void {
    setRows(
      this.processesLive,
      rows.map((r) => ({ labels: { role: r.role }, value: r.live })),
    );
  }

  /** Prometheus text of this process. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * Reads every source once per scrape (each database gauge's collect() asks; the first starts
   * the round, the others wait for it). A source that fails empties its own gauges.
   */
  private readSources(): Promise<void> {
    this.reading ??= (async () => {
      await Promise.all(
        this.sources.map(async (s) => {
          try {
            await s.read();
          } catch {
            this.emptyGaugesOf(s.name);
          }
        }),
      );
    })().finally(() => {
      // The next scrape reads again; this one's gauges all saw the same round.
      setImmediate(() => (this.reading = null));
    });
    return this.reading;
  }

  private emptyGaugesOf(source: string): void {
    const gauges: Record<string, Gauge<string>[]> = {
      queues: [this.queueDue, this.queueOldestDue],
      verification: [this.tasksOpen, this.tasksOverdue],
      processes: [this.processesLive],
    };
    for (const g of gauges[source] ?? []) g.reset();
  }
}

/** Sets `gauge` to exactly these rows (a label set absent now is gone from the scrape). */
function setRows<L extends string>(
  gauge: Gauge<L>,
  rows: { labels: LabelValues<L>; value: number }[],
): void {
  gauge.reset();
  for (const r of rows) gauge.set(r.labels, r.value);
}
