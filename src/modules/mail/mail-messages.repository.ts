import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { MailMessage } from './mail-message.entity';

/** A message as it is queued (its due time and attempt count are MailQueue's, by default). */
export type NewMailMessage = Pick<
  MailMessage,
  | 'accountId'
  | 'kind'
  | 'ref'
  | 'toAddress'
  | 'subject'
  | 'textBody'
  | 'htmlBody'
  | 'attachments'
  | 'status'
> &
  Partial<Pick<MailMessage, 'linkSealed'>>;

/**
 * Outgoing e-mails (`mail_messages`). The queue columns (`next_attempt_at`, `attempts`,
 * `lease_job`, `lease_owner`) are MailQueue's: a new row takes their defaults (due now).
 */
@Injectable()
export class MailMessagesRepository {
  constructor(@InjectRepository(MailMessage) private readonly messages: Repository<MailMessage>) {}

  insert(message: NewMailMessage): Promise<MailMessage> {
    return this.messages.save(this.messages.create(message));
  }

  findById(id: string): Promise<MailMessage | null> {
    return this.messages.findOne({ where: { id } });
  }

  /** Sent: `deliveredTo` is the SMTP server's answer (or the .eml file written); no link kept. */
  async markSent(id: string, deliveredTo: string): Promise<void> {
    await this.messages.update(
      { id },
      { status: 'sent', sentAt: new Date(), lastError: null, deliveredTo, linkSealed: null },
    );
  }

  /** Failed for good, with the last error (its link is dropped: it will never be sent). */
  async markFailed(id: string, error: string): Promise<void> {
    await this.messages.update({ id }, { lastError: error, status: 'failed', linkSealed: null });
  }
}
