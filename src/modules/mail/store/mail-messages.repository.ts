import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
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
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(MailMessage) private readonly messages: Repository<MailMessage>,
  ) {}

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

  /**
   * SECURITY.md: up to `limit` sent (or failed) e-mails created before `cutoff` lose their
   * recipient, subject, bodies and attachments (kind, ref, status and dates stay); answers how
   * many. Queued mail is left to be sent first.
   */
  async purge(cutoff: Date, limit: number, tx?: Tx): Promise<number> {
    const rows: unknown[] = await managerOf(this.db, tx).query(
      `UPDATE mail_messages SET to_address = '', subject = '', text_body = '', html_body = '',
              attachments = NULL
        WHERE id IN (
          SELECT id FROM mail_messages
           WHERE created_at < $1 AND status <> 'queued'
             AND (to_address <> '' OR text_body <> '' OR html_body <> '' OR attachments IS NOT NULL)
           ORDER BY created_at, id
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [cutoff, limit],
    );
    // TypeORM answers an UPDATE ... RETURNING with [rows, count].
    const updated = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return updated.length;
  }
}
