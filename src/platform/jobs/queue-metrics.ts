import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Metrics, setRows } from '@/platform/metrics/metrics';
import type { DbQueueSpec } from './db-queue-spec';
import { LAPSED_BEATS } from './process-registry';
import { QueueWorkers } from './queue-workers';
import { ServiceProcessesRepository } from './service-processes.repository';

const ROLES = ['all', 'api', 'worker'] as const;

/**
 * One row per queue: the jobs due now and not running (a run moves its row's due time past the
 * run; a parked row is due at 'infinity') and how long the oldest of them has waited. Each part
 * reads the queue's own partial index on its due column.
 */
export function dueStatsSql(specs: readonly DbQueueSpec[]): string {
  return specs
    .map(
      (s, i) =>
        `SELECT $${i + 1}::text AS queue, count(*)::int AS due,
           COALESCE(extract(epoch FROM now() - min(${s.dueColumn})), 0)::float8 AS oldest
         FROM ${s.table} WHERE ${s.pending} AND ${s.dueColumn} <= now()`,
    )
    .join('\nUNION ALL\n');
}

/**
 * The queues' and processes' gauges (docs/architecture.md, What operators see), read from
 * PostgreSQL when a scrape asks: `queue_jobs_due`, `queue_oldest_due_age_seconds` and
 * `service_processes_live` (processes whose heartbeat is within three intervals).
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly workers: QueueWorkers,
    private readonly processes: ServiceProcessesRepository,
    private readonly metrics: Metrics,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.metrics.addSource('queues', () => this.readQueues());
    this.metrics.addSource('processes', () => this.readProcesses());
  }

  async readQueues(): Promise<void> {
    const specs = this.workers.queues().map((q) => q.spec);
    if (specs.length === 0) return;
    const rows: { queue: string; due: number; oldest: number }[] = await this.db.query(
      dueStatsSql(specs),
      specs.map((s) => s.name),
    );
    setRows(
      this.metrics.queueDue,
      rows.map((r) => ({ labels: { queue: r.queue }, value: r.due })),
    );
    setRows(
      this.metrics.queueOldestDue,
      rows.map((r) => ({ labels: { queue: r.queue }, value: Math.max(0, r.oldest) })),
    );
  }

  async readProcesses(): Promise<void> {
    const live = await this.processes.liveByRole(this.config.processHeartbeatMs * LAPSED_BEATS);
    setRows(
      this.metrics.processesLive,
      ROLES.map((role) => ({ labels: { role }, value: live.get(role) ?? 0 })),
    );
  }
}
