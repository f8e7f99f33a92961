import { SetMetadata } from '@nestjs/common';
import type { QueueJob } from './local-lane';

export const QUEUE_WORKER = Symbol('queue-worker');

export interface QueueWorkerMeta {
  queue: string;
}

/** What a queue worker does with one job. Thin: the row holds the work, the job only its id. */
export interface JobHandler {
  handle(job: QueueJob): Promise<void>;
}

/**
 * Marks a provider (implementing JobHandler) as the worker of one queue. QueueWorkers registers
 * it in processes whose ROLE runs workers, and refuses to start when a queue has none. How many
 * jobs run at once is the queue's declaration (`DbQueueSpec.concurrency`), not the worker's.
 */
export const QueueWorker = (queue: string): ClassDecorator =>
  SetMetadata(QUEUE_WORKER, { queue } satisfies QueueWorkerMeta);
