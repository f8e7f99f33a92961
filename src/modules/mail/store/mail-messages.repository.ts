import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, queryOne, sql } from '@/platform/db/sql';
import { MailMessage } from './mail-message.entity';

/** A message as it is queued (its due time and attempt count are MailQueue's, by default). */
type NewMailMessage = Pick<
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
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the message; answers its id. */
  async insert(m: NewMailMessage): Promise<string> {
    const row = await queryOne<{ id: string }>(
      this.db,
      sql`INSERT INTO mail_messages (account_id, kind, ref, to_address, subject, text_body, html_body,
         attachments, link_sealed, status)
       VALUES (${m.accountId}, ${m.kind}, ${m.ref}, ${m.toAddress}, ${m.subject}, ${m.textBody},
         ${m.htmlBody}, ${m.attachments && JSON.stringify(m.attachments)}::jsonb,
         ${m.linkSealed ?? null}, ${m.status})
       RETURNING id`,
    );
    return row!.id;
  }

  findById(id: string): Promise<MailMessage | null> {
    return queryOne(
      this.db,
      sql`SELECT ${entityColumns(this.db, MailMessage, 'm')} FROM mail_messages m WHERE m.id = ${id}`,
    );
  }

  /** Sent: `deliveredTo` is the SMTP server's answer (or the .eml file written); no link kept. */
  async markSent(id: string, deliveredTo: string): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE mail_messages SET status = 'sent', sent_at = ${new Date()}, last_error = NULL,
         delivered_to = ${deliveredTo}, link_sealed = NULL
       WHERE id = ${id}`,
    );
  }

  /** Failed for good, with the last error (its link is dropped: it will never be sent). */
  async markFailed(id: string, error: string): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE mail_messages SET last_error = ${error}, status = 'failed', link_sealed = NULL
       WHERE id = ${id}`,
    );
  }

  /**
   * SECURITY.md: up to `limit` sent (or failed) e-mails created before `cutoff` lose their
   * recipient, subject, bodies and attachments (kind, ref, status and dates stay); answers how
   * many. Queued mail is left to be sent first.
   */
  purge(cutoff: Date, limit: number, tx?: Tx): Promise<number> {
    return execute(
      this.db,
      sql`UPDATE mail_messages SET to_address = '', subject = '', text_body = '', html_body = '',
              attachments = NULL
        WHERE id IN (
          SELECT id FROM mail_messages
           WHERE created_at < ${cutoff} AND status <> 'queued'
             AND (to_address <> '' OR text_body <> '' OR html_body <> '' OR attachments IS NOT NULL)
           ORDER BY created_at, id
           LIMIT ${limit}
           FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      tx,
    );
  }
}
