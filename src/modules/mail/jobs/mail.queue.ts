import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';
import type { RetryPolicy } from '@/platform/kernel/retry';

export const MAIL_QUEUE = 'mail';

/**
 * 12 attempts, 5 s apart doubling each time: retries for about 5.7 hours before the message is
 * marked failed.
 */
export const MAIL_RETRIES: RetryPolicy = { doublingFromMs: 5_000, maxAttempts: 12 };

/** E-mails: one row of mail_messages each, due at `next_attempt_at` while `queued`. */
@Injectable()
export class MailQueue extends dbQueueOf(MAIL_QUEUE, () => ({
  job: 'send',
  table: 'mail_messages',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempts',
  pending: `status = 'queued'`,
  // SMTP connection, greeting and socket timeouts together, and some margin.
  leaseMs: 90_000,
})) {}
