import { SetMetadata } from '@nestjs/common';
import type { AppConfig } from '@/platform/config/env';
import type { QueueJob } from './local-lane';

export const QUEUE_WORKER = Symbol('queue-worker');

export interface QueueWorkerOptions {
  /** Jobs run at once per process (default 1). */
  concurrency?: (config: AppConfig) => number;
}

export interface QueueWorkerMeta extends QueueWorkerOptions {
  queue: string;
}

/** What a queue worker does with one job. Thin: the row holds the work, the job only its id. */
export interface JobHandler {
  handle(job: QueueJob): Promise<void>;
}

/**
 * Marks a provider (implementing JobHandler) as the worker of one queue. QueueWorkers registers
 * it in processes whose ROLE runs workers, and refuses to start when a queue has none.
 */
export const QueueWorker = (queue: string, options: QueueWorkerOptions = {}): ClassDecorator =>
  SetMetadata(QUEUE_WORKER, { queue, ...options } satisfies QueueWorkerMeta);
