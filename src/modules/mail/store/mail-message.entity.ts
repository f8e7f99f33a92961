import { Column, Entity } from 'typeorm';
import { OptionalAccountRecord, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

type MailStatus = 'queued' | 'sent' | 'failed';

/** A file sent with the message (the claim form PDF), stored base64 in the outbox row. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64. */
  content: string;
}

/**
 * An outgoing e-mail (outbox row). The queue job carries only this row's id; the processor
 * sends it and records the outcome, so a retried or duplicated job never sends twice once sent.
 */
@Entity('mail_messages')
export class MailMessage extends OptionalAccountRecord {
  /** What the mail is about, e.g. `claim_notification`. */
  @Column({ type: 'varchar', length: 32 })
  kind: string;

  /** The public code of the object it is about (a claim code). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ref: string | null;

  @Column({ name: 'to_address', type: 'varchar', length: 254 })
  toAddress: string;

  @Column({ type: 'varchar', length: 300 })
  subject: string;

  @Column({ name: 'text_body', type: 'text' })
  textBody: string;

  @Column({ name: 'html_body', type: 'text' })
  htmlBody: string;

  @Column({ type: 'jsonb', nullable: true })
  attachments: MailAttachment[] | null;

  /**
   * The e-mail's link (an invitation or reset link: a usable token), sealed under
   * APP_ENCRYPTION_KEY until it is sent; the bodies hold MAIL_LINK in its place. Null once the
   * message is sent or failed for good, and for e-mails without one.
   */
  @Column({ name: 'link_sealed', type: 'text', nullable: true })
  linkSealed: string | null;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status: MailStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** The SMTP server's answer, or the .eml file written when SMTP is not configured. */
  @Column({ name: 'delivered_to', type: 'text', nullable: true })
  deliveredTo: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('sent_at', { nullable: true })
  sentAt: Date | null;
}
