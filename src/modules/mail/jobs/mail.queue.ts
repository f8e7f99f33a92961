import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';

export const MAIL_QUEUE = 'mail';

/**
 * E-mails: one row of mail_messages each, due at `next_attempt_at` while `queued`; a failed send
 * is tried again MAIL_RETRY_BASE_MS later, doubling, MAIL_MAX_ATTEMPTS in all.
 */
@Injectable()
export class MailQueue extends dbQueueOf(MAIL_QUEUE, (config) => ({
  job: 'send',
  table: 'mail_messages',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempts',
  pending: `status = 'queued'`,
  // SMTP connection, greeting and socket timeouts together, and some margin.
  leaseMs: 90_000,
  concurrency: config.mailConcurrency,
  retries: { doublingFromMs: config.mailRetryBaseMs, maxAttempts: config.mailMaxAttempts },
})) {}
