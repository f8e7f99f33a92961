import { Injectable, Logger } from '@nestjs/common';
import { escapeHtml } from '@/platform/kernel/html';
import { openSecret } from '@/platform/kernel/secret-box';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { tags } from '@/platform/jobs/db-queue';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import type { MailMessage } from '../store/mail-message.entity';
import { MailMessagesRepository } from '../store/mail-messages.repository';
import { MAIL_LINK, mailLinkPurpose } from '../domain/mail.service';
import { MAIL_QUEUE, MailQueue } from './mail.queue';
import { MailTransport, PermanentMailError } from '../domain/mail.transport';

/**
 * Sends queued e-mails (worker roles only, like every queue: QueueWorkers registers it when the
 * injected config's ROLE runs workers).
 */
@Injectable()
@QueueWorker(MAIL_QUEUE)
export class MailProcessor implements JobHandler {
  private readonly logger = new Logger(MailProcessor.name);

  constructor(
    private readonly messages: MailMessagesRepository,
    private readonly queue: MailQueue,
    private readonly transport: MailTransport,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * The bodies as sent: the sealed link in place of MAIL_LINK. Where the transport keeps what
   * it sends (the .eml files) in production, the link is left out: a file on the pod's disk must
   * not hold a working token (production mail goes over SMTP).
   */
  private withLink(message: MailMessage): { text: string; html: string } {
    const { textBody: text, htmlBody: html, linkSealed } = message;
    if (!linkSealed) return { text, html };
    if (!this.transport.mayKeepLinks) {
      this.logger.warn({ mail: message.id, kind: message.kind }, 'link left out: SMTP_URL unset');
      return { text, html };
    }
    const link = openSecret(this.config, linkSealed, mailLinkPurpose(message.toAddress));
    return {
      text: text.replaceAll(MAIL_LINK, link),
      html: html.replaceAll(MAIL_LINK, escapeHtml(link)),
    };
  }

  /** Idempotent: the lease skips a message already sent, failed or being sent by another job. */
  async handle(job: QueueJob): Promise<void> {
    const id = job.data.id;
    const attempt = await this.queue.lease(id, String(job.id));
    if (attempt === null) return;
    const message = await this.messages.findById(id);
    if (!message) return;
    try {
      const { text, html } = this.withLink(message);
      const deliveredTo = await this.transport.send({
        to: message.toAddress,
        subject: message.subject,
        text,
        html,
        messageId: `<${message.id}@${this.transport.domain}>`,
        attachments: (message.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content, 'base64'),
        })),
      });
      await this.messages.markSent(id, deliveredTo);
      this.logger.log(
        { mail: id, kind: message.kind, ref: message.ref, via: this.transport.mode },
        'mail sent',
      );
    } catch (e) {
      const permanent = e instanceof PermanentMailError;
      const delay = permanent ? null : this.queue.retryDelay(attempt);
      const final = delay === null;
      const error = (e as Error).message.slice(0, 1000);
      if (final) await this.messages.markFailed(id, error);
      else
        await this.queue.schedule(id, delay, tags.attempt(attempt + 1), {
          last_error: error,
        });
      this.logger.warn(
        { mail: id, attempt, permanent, ...sendFailure(e) },
        final ? 'mail failed for good' : 'mail failed; will retry',
      );
    }
  }
}

/**
 * What a log line may say about a failed send: the error's kind, nodemailer's code, the SMTP
 * command and reply code. Never the message: an SMTP server's answer echoes recipients
 * (`550 5.1.1 <patient@example.com>: Recipient address rejected`). The whole answer stays in
 * `mail_messages.last_error`, beside the recipient it names.
 */
export function sendFailure(e: unknown): Record<string, string | number> {
  const { name, code, command, responseCode } = (e ?? {}) as Record<string, unknown>;
  const out: Record<string, string | number> = {};
  if (typeof name === 'string') out.error = name;
  if (typeof code === 'string') out.code = code;
  if (typeof command === 'string') out.command = command;
  if (typeof responseCode === 'number') out.responseCode = responseCode;
  return out;
}
