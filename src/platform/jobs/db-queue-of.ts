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
      closeQuietly(queue);
    }
  }
  return QueueOf;
}

/**
 * Bull's close rejects with the connection's last error when Redis refuses while it quits (its
 * disconnect waits for 'end' and rejects on 'error'): without Redis, a shutdown is still a clean
 * one (docs/configuration.md, Database and Redis). `@nestjs/bull` closes each queue by this hook.
 */
export function closeQuietly(queue: Queue<DbJobData>): void {
  const hooked = queue as Queue<DbJobData> & { onApplicationShutdown?: () => Promise<void> };
  hooked.onApplicationShutdown = () => queue.close().catch(() => undefined);
}
