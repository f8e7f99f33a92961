import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bull';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import { AppConfig, runsWorkers } from '@/config/env';
import { DbJobData, DbQueue } from './db-queue';
import { JobHandler, QUEUE_WORKER, QueueWorkerMeta } from './queue-worker';

/**
 * Registers every @QueueWorker with its queue, in processes whose ROLE (from the injected config)
 * runs workers: `api` processes only add jobs. Every DbQueue must have a worker, or start-up fails.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap {
  private readonly logger = new Logger(QueueWorkers.name);
  private readonly registered: string[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The queues this process works on (empty in ROLE=api). */
  running(): string[] {
    return [...this.registered];
  }

  /** Every DbQueue of the application. */
  queues(): DbQueue[] {
    return this.discovery
      .getProviders()
      .map((w) => w.instance as unknown)
      .filter((i): i is DbQueue => i instanceof DbQueue);
  }

  onApplicationBootstrap(): void {
    const workers = this.workers();
    for (const queue of this.queues()) {
      if (!workers.some((w) => w.meta.queue === queue.spec.name))
        throw new Error(`Queue ${queue.spec.name} has no @QueueWorker`);
    }
    if (!runsWorkers(this.config)) {
      this.logger.log({ role: this.config.role }, 'queue workers not started (ROLE=api)');
      return;
    }
    for (const { meta, handler } of workers) {
      const queue = this.queues().find((q) => q.spec.name === meta.queue);
      if (!queue) throw new Error(`@QueueWorker(${meta.queue}) names no DbQueue`);
      if (this.registered.includes(meta.queue))
        throw new Error(`Two @QueueWorker for ${meta.queue}`);
      const concurrency = meta.concurrency?.(this.config) ?? 1;
      queue.queue.on('failed', (job: Job<DbJobData>, error: Error) =>
        this.logger.error(
          { queue: meta.queue, id: job.data.id, jobId: job.id, err: error.message },
          'job failed; the sweeper will run it again',
        ),
      );
      queue.queue
        .process(queue.spec.job, concurrency, (job: Job<DbJobData>) => handler.handle(job))
        .catch((e: unknown) =>
          this.logger.error({ queue: meta.queue, err: (e as Error).message }, 'worker stopped'),
        );
      this.registered.push(meta.queue);
    }
    this.logger.log({ queues: this.registered }, 'queue workers started');
  }

  private workers(): { meta: QueueWorkerMeta; handler: JobHandler }[] {
    return this.discovery.getProviders().flatMap(({ metatype, instance }) => {
      if (!metatype || !instance) return [];
      const meta = Reflect.getMetadata(QUEUE_WORKER, metatype) as QueueWorkerMeta | undefined;
      return meta ? [{ meta, handler: instance as JobHandler }] : [];
    });
  }
}

/** Worker roles: re-enqueues the overdue rows of every DbQueue (jobs lost with Redis, dead workers). */
@Injectable()
export class QueueSweeper extends MaintenanceLoop {
  protected readonly logger = new Logger(QueueSweeper.name);

  constructor(
    private readonly workers: QueueWorkers,
    @InjectConfig() config: AppConfig,
  ) {
    super(config);
  }

  protected async runOnce(): Promise<void> {
    for (const queue of this.workers.queues()) await queue.requeueOverdue();
  }
}
