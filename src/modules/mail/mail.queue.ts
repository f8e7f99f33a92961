import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Database } from '@/database/database';
import { DbJobData, DbQueue } from '@/common/queue/db-queue';

export const MAIL_QUEUE = 'mail';

/**
 * 12 attempts, 5 s apart doubling each time: retries for about 5.7 hours before the message is
 * marked failed.
 */
export const MAIL_MAX_ATTEMPTS = 12;
export const mailRetryDelayMs = (attempt: number) => 5_000 * 2 ** (attempt - 1);

/** E-mails: one row of mail_messages each, due at `next_attempt_at` while `queued`. */
@Injectable()
export class MailQueue extends DbQueue {
  constructor(database: Database, @InjectQueue(MAIL_QUEUE) queue: Queue<DbJobData>) {
    super(
      {
        name: MAIL_QUEUE,
        job: 'send',
        table: 'mail_messages',
        dueColumn: 'next_attempt_at',
        attemptsColumn: 'attempts',
        pending: `status = 'queued'`,
        // SMTP connection, greeting and socket timeouts together, and some margin.
        leaseMs: 90_000,
      },
      database,
      queue,
    );
  }
}
