import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { Repository } from 'typeorm';
import { MailMessage } from './mail-message.entity';
import { MAIL_QUEUE, SEND_MAIL_JOB, SendMailJob, sendMailJobOptions } from './mail.queue';

export interface NewMail {
  accountId: string | null;
  /** What the mail is about (`claim_notification`), for the outbox and the logs. */
  kind: string;
  /** The public code of the object it is about. */
  ref: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Queues e-mails. Nothing is sent inside a request: the message is stored, a job carrying its id
 * is queued, and MailProcessor sends it with retries.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  constructor(
    @InjectRepository(MailMessage) private readonly messages: Repository<MailMessage>,
    @InjectQueue(MAIL_QUEUE) private readonly queue: Queue<SendMailJob>,
  ) {}

  /** Stores the message and queues its delivery; returns the message id. */
  async enqueue(mail: NewMail): Promise<string> {
    const message = await this.messages.save(
      this.messages.create({
        accountId: mail.accountId,
        kind: mail.kind,
        ref: mail.ref,
        toAddress: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        status: 'queued',
      }),
    );
    try {
      await this.queue.add(
        SEND_MAIL_JOB,
        { messageId: message.id },
        sendMailJobOptions(message.id),
      );
    } catch (e) {
      await this.messages.update(
        { id: message.id },
        { status: 'failed', lastError: `could not queue: ${(e as Error).message}` },
      );
      throw e;
    }
    this.logger.log({ mail: message.id, kind: mail.kind, ref: mail.ref }, 'mail queued');
    return message.id;
  }

  findMessage(id: string): Promise<MailMessage | null> {
    return this.messages.findOne({ where: { id } });
  }
}
