import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Metrics } from '@/platform/metrics/metrics';
import { LAPSED_BEATS } from './process-registry';
import { QueueWorkers } from './queue-workers';
import { QueueStatsRepository } from './queue-stats.repository';
import { ServiceProcessesRepository } from './service-processes.repository';

const ROLES = ['all', 'api', 'worker'] as const;

/**
 * The queues' and processes' gauges (docs/architecture.md, What operators see), read from
 * PostgreSQL when a scrape asks: `queue_jobs_due`, `queue_oldest_due_age_seconds` and
 * `service_processes_live` (processes whose heartbeat is within three intervals).
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    private readonly stats: QueueStatsRepository,
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
    this.metrics.setQueues(await this.stats.due(specs));
  }

  async readProcesses(): Promise<void> {
    const live = await this.processes.liveByRole(this.config.processHeartbeatMs * LAPSED_BEATS);
    this.metrics.setProcesses(ROLES.map((role) => ({ role, live: live.get(role) ?? 0 })));
  }
}
