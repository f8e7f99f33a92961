import type { GaugeSource, PromMetrics } from './prom-metrics';
import type { POOL_STATES } from './metric-labels';

/**
 * The process's metrics (docs/architecture.md, What operators see): typed hooks that feed
 * prom-metrics.ts when METRICS_PORT is set. Unset, prom-client (and OpenTelemetry's API, which it
 * loads) is never loaded and every hook returns at once.
 */
export class Metrics {
  /** prom-client's side, with METRICS_PORT set; null otherwise. */
  readonly prom: PromMetrics | null;

  constructor(readonly enabled: boolean) {
    this.prom = enabled
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        new (require('./prom-metrics') as typeof import('./prom-metrics')).PromMetrics()
      : null;
  }

  /** A database figure for the scrape (module start-up; the source's gauges are its own). */
  addSource(name: string, read: GaugeSource): void {
    this.prom?.addSource(name, read);
  }

  /** The pool's counts, read at each scrape (src/platform/db binds it). */
  readPool(reader: () => Record<(typeof POOL_STATES)[number], number> | null): void {
    this.prom?.readPool(reader);
  }

  /** One insurer of a finished search: its state at the end, and how long the search took. */
  searchFinished(insurer: string, outcome: string, path: string, seconds: number | null): void {
    this.prom?.searchFinished(insurer, outcome, path, seconds);
  }

  insurerCall(insurer: string, transport: string, outcome: string, seconds: number): void {
    this.prom?.insurerCall(insurer, transport, outcome, seconds);
  }

  webhookAttempt(outcome: string): void {
    this.prom?.webhookAttempt(outcome);
  }

  /** The open verification tasks of every account, by insurer and state, and the overdue ones. */
  setOpenTasks(rows: { insurer: string; state: string; count: number }[], overdue: number): void {
    this.prom?.setOpenTasks(rows, overdue);
  }

  /** Jobs due and the oldest due job's age (seconds), per queue. */
  setQueues(rows: { queue: string; due: number; oldest: number }[]): void {
    this.prom?.setQueues(rows);
  }

  /** Processes with a current heartbeat, per role. */
  setProcesses(rows: { role: string; live: number }[]): void {
    this.prom?.setProcesses(rows);
  }
}
