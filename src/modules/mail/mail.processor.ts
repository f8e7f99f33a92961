import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Job, Queue } from 'bull';
import { Repository } from 'typeorm';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { MailMessage } from './mail-message.entity';
import { MAIL_QUEUE, SEND_MAIL_JOB, SendMailJob } from './mail.queue';
import { MailTransport, PermanentMailError } from './mail.transport';

const CONCURRENCY = 5;

/**
 * Sends queued e-mails. Registered by hand (not with @Processor) so that `ROLE=api` processes
 * serve HTTP only and leave the queue to the workers (CONTRACT §9).
 */
@Injectable()
export class MailProcessor implements OnModuleInit {
  private readonly logger = new Logger(MailProcessor.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectQueue(MAIL_QUEUE) private readonly queue: Queue<SendMailJob>,
    @InjectRepository(MailMessage) private readonly messages: Repository<MailMessage>,
    private readonly transport: MailTransport,
  ) {}

  onModuleInit(): void {
    if (this.config.role === 'api') return;
    this.queue
      .process(SEND_MAIL_JOB, CONCURRENCY, (job: Job<SendMailJob>) => this.handle(job))
      .catch((e: unknown) =>
        this.logger.error({ err: (e as Error).message }, 'mail worker stopped'),
      );
  }

  /** Idempotent: a message already sent (or gone with its account) is not sent again. */
  async handle(job: Job<SendMailJob>): Promise<void> {
    const id = job.data.messageId;
    const message = await this.messages.findOne({ where: { id } });
    if (!message) {
      this.logger.warn({ mail: id }, 'mail message not found; nothing to send');
      return;
    }
    if (message.status === 'sent') return;
    await this.messages.increment({ id }, 'attempts', 1);
    try {
      const deliveredTo = await this.transport.send({
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        messageId: `<${message.id}@${this.transport.domain}>`,
      });
      await this.messages.update(
        { id },
        { status: 'sent', sentAt: new Date(), lastError: null, deliveredTo },
      );
      this.logger.log(
        { mail: id, kind: message.kind, ref: message.ref, via: this.transport.mode },
        'mail sent',
      );
    } catch (e) {
      const permanent = e instanceof PermanentMailError;
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const error = (e as Error).message.slice(0, 1000);
      await this.messages.update(
        { id },
        { lastError: error, ...(permanent || lastAttempt ? { status: 'failed' as const } : {}) },
      );
      this.logger.warn(
        { mail: id, attempt: job.attemptsMade + 1, permanent, err: error },
        permanent || lastAttempt ? 'mail failed for good' : 'mail failed; will retry',
      );
      if (permanent) await job.discard();
      throw e;
    }
  }
}
