import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { type DbJobData, DbQueue, type DbQueueSpec } from './db-queue';

/**
 * The base class of a queue definition (`*.queue.ts`, docs/architecture.md, The queue idiom): a
 * DbQueue on the Bull queue `name`, its spec made from the configuration. A definition only names
 * where its rows live: `class MailQueue extends dbQueueOf(MAIL_QUEUE, () => ({ … })) {}`.
 */
export function dbQueueOf(name: string, spec: (config: AppConfig) => Omit<DbQueueSpec, 'name'>) {
  @Injectable()
  class QueueOf extends DbQueue {
    constructor(
      database: Database,
      @InjectQueue(name) queue: Queue<DbJobData>,
      @InjectConfig() config: AppConfig,
    ) {
      super({ name, ...spec(config) }, database, queue);
      quietWithoutRedis(queue);
    }
  }
  return QueueOf;
}

/**
 * Bull without Redis, made quiet (docs/configuration.md, Database and Redis): its close rejects
 * with the connection's last error when Redis refuses while it quits (its disconnect waits for
 * 'end' and rejects on 'error'), so a shutdown is still a clean one (`@nestjs/bull` closes each
 * queue by this hook); and its `process()` starts naming the connection without keeping the
 * promise, which rejects when the connection ends before it was ever ready (a shutdown while
 * Redis does not answer): an unhandled rejection, which ends a process.
 */
export function quietWithoutRedis(queue: Queue<DbJobData>): void {
  const hooked = queue as Queue<DbJobData> & {
    onApplicationShutdown?: () => Promise<void>;
    setWorkerName?: () => Promise<void>;
  };
  hooked.onApplicationShutdown = () => queue.close().catch(() => undefined);
  const setWorkerName = hooked.setWorkerName?.bind(queue);
  if (setWorkerName) hooked.setWorkerName = () => setWorkerName().catch(() => undefined);
}
