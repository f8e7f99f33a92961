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
    }
  }
  return QueueOf;
}
