import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bull';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { withTimeout } from '@/platform/kernel/timeout';
import { inSpan, tracingOn } from '@/platform/tracing/tracing';
import { InjectConfig } from '@/platform/config/config.module';
import { AppConfig, runsWorkers } from '@/platform/config/env';
import { DbJobData, DbQueue } from './db-queue';
import { LocalLane, Permits, type QueueJob } from './local-lane';
import { ProcessRegistry } from './process-registry';
import { JobHandler, QUEUE_WORKER, QueueWorkerMeta } from './queue-worker';

/** A connection error of Redis: nothing answers, or the connection ended before it did. */
const REDIS_UNREACHABLE = /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|Connection is closed/;

/** A lane holds at most this many concurrencies' worth of rows before dispatch goes to Bull. */
const LANE_CAPACITY_PER_PERMIT = 20;
/** On a graceful stop, how long Bull jobs in flight get to end before this process deregisters. */
const ACTIVE_JOBS_GRACE_MS = 20_000;

/**
 * Registers every @QueueWorker with its queue, in processes whose ROLE (from the injected config)
 * runs workers: `api` processes only add jobs. Every DbQueue must have a worker, or start-up fails.
 * Each queue's Bull worker and its LocalLane (work this process dispatched to itself) share one
 * set of permits: the queue's declared concurrency bounds both together.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueWorkers.name);
  private readonly registered: string[] = [];
  private readonly lanes: { queue: DbQueue; lane: LocalLane }[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @InjectConfig() private readonly config: AppConfig,
    private readonly registry: ProcessRegistry,
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
    // Leases name this process; one that runs the queues releases dead peers' leases now.
    this.registry.attach(this.queues(), runsWorkers(this.config));
    if (!runsWorkers(this.config)) {
      this.logger.log({ role: this.config.role }, 'queue workers not started (ROLE=api)');
      return;
    }
    for (const { meta, handler } of workers) {
      const queue = this.queues().find((q) => q.spec.name === meta.queue);
      if (!queue) throw new Error(`@QueueWorker(${meta.queue}) names no DbQueue`);
      if (this.registered.includes(meta.queue))
        throw new Error(`Two @QueueWorker for ${meta.queue}`);
      const { concurrency } = queue.spec;
      const failed = (id: string, jobId: unknown, error: Error) =>
        this.logger.error(
          { queue: meta.queue, id, jobId, err: error.message },
          'job failed; the sweeper will run it again',
        );
      queue.queue.on('failed', (job: Job<DbJobData>, error: Error) =>
        failed(job.data.id, job.id, error),
      );
      const permits = new Permits(concurrency);
      const run = tracingOn()
        ? tracedRun(meta.queue, handler)
        : (job: QueueJob) => handler.handle(job);
      const lane = new LocalLane(
        queue.spec.job,
        permits,
        concurrency * LANE_CAPACITY_PER_PERMIT,
        (job) => run(job, 'lane'),
        (id, error) => failed(id, null, error),
      );
      queue.attachLane(lane);
      this.lanes.push({ queue, lane });
      queue.queue
        .process(queue.spec.job, concurrency, (job: Job<DbJobData>) =>
          permits.use(() => run(job, 'bull')),
        )
        .catch((e: unknown) => {
          const err = (e as Error).message;
          // Bull's worker waits for Redis; a queue closed while it still connects (a process
          // running on PostgreSQL alone, stopping) ends it so: the lane runs the work meanwhile.
          if (REDIS_UNREACHABLE.test(err))
            this.logger.warn({ queue: meta.queue, err }, 'Bull worker ended before Redis answered');
          else this.logger.error({ queue: meta.queue, err }, 'worker stopped');
        });
      this.registered.push(meta.queue);
    }
    this.logger.log({ queues: this.registered }, 'queue workers started');
  }

  /**
   * Before the queues and the database close: this process's Bull workers take no new job, the
   * lanes stop, the rows they had not started go to Bull (where another worker takes them at
   * once), and their runs in flight end.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const lanes = this.lanes.splice(0);
    await Promise.all(
      lanes.map(async ({ queue, lane }) => {
        await queue.queue.pause(true, true).catch(() => undefined);
        queue.attachLane(null);
        const left = lane.close();
        for (const { id, jobId } of left) await queue.handBack(id, jobId);
        if (left.length > 0)
          this.logger.log({ queue: queue.spec.name, count: left.length }, 'handed to Bull');
        await lane.idle();
        await withTimeout(queue.queue.whenCurrentJobsFinished(), ACTIVE_JOBS_GRACE_MS).catch(
          () => undefined,
        );
      }),
    );
    // Nothing of this process runs any more: what it still holds is released by the others.
    await this.registry.deregister();
  }

  private workers(): { meta: QueueWorkerMeta; handler: JobHandler }[] {
    return this.discovery.getProviders().flatMap(({ metatype, instance }) => {
      if (!metatype || !instance) return [];
      const meta = Reflect.getMetadata(QUEUE_WORKER, metatype) as QueueWorkerMeta | undefined;
      return meta ? [{ meta, handler: instance as JobHandler }] : [];
    });
  }
}

/**
 * docs/architecture.md, Tracing: each job runs in a span of its own, continuing the trace of
 * the code that enqueued it (the `traceparent` its data carries; a job the sweeper re-enqueued
 * has none and starts a trace). Its attributes: the queue, the job id (row ids, no patient
 * data), the way it came (`bull` or this process's `lane`), and whether it threw.
 */
function tracedRun(
  queueName: string,
  handler: JobHandler,
): (job: QueueJob, path: 'lane' | 'bull') => Promise<void> {
  return (job, path) =>
    inSpan(
      `${queueName} process`,
      { 'queue.name': queueName, 'queue.job_id': String(job.id), 'queue.path': path },
      () => handler.handle(job),
      { kind: 'consumer', parent: job.data.traceparent ?? null },
    );
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
    const ahead = this.intervalMs();
    for (const queue of this.workers.queues()) await queue.requeueOverdue(30, 500, ahead);
  }
}
