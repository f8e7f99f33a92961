import type { JobOptions } from 'bull';

export const MAIL_QUEUE = 'mail';
export const SEND_MAIL_JOB = 'send';

export interface SendMailJob {
  /** Id of the mail_messages row to send. */
  messageId: string;
}

/**
 * 12 attempts, exponential backoff from 5 s: retries for about 5.7 hours before the message is
 * marked failed. The job id is the message id, so queueing the same message twice adds one job.
 */
export function sendMailJobOptions(messageId: string): JobOptions {
  return {
    jobId: messageId,
    attempts: 12,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}
