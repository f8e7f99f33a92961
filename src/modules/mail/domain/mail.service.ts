import { Injectable, Logger } from '@nestjs/common';
import { sealSecret } from '@/platform/kernel/secret-box';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import type { MailAttachment, MailMessage } from '../store/mail-message.entity';
import { MailMessagesRepository } from '../store/mail-messages.repository';
import { MailQueue } from '../jobs/mail.queue';

/** Stands for a mail's link in its stored bodies; replaced by the link only as it is sent. */
export const MAIL_LINK = '[link withheld]';

/** The sealed link's associated data: it opens only for the recipient it was sealed for. */
export const mailLinkPurpose = (to: string) => `mail-link:${to}`;

interface NewMail {
  accountId: string | null;
  /** What the mail is about (`claim_notification`), for the outbox and the logs. */
  kind: string;
  /** The public code of the object it is about. */
  ref: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A link that works on its own (an invitation or reset token): `text` and `html` say MAIL_LINK
   * where it goes. It is never stored in the bodies, only sealed until the e-mail is sent.
   */
  link?: string;
  /** Files sent with it, e.g. the claim form PDF. */
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

/**
 * Queues e-mails. Nothing is sent inside a request: the message is stored, a job carrying its id
 * is queued, and MailProcessor sends it with retries; the queue sweeper re-enqueues a message
 * whose job was lost.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  constructor(
    private readonly messages: MailMessagesRepository,
    private readonly queue: MailQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Stores the message and queues its delivery; returns the message id. */
  async enqueue(mail: NewMail): Promise<string> {
    const id = await this.messages.insert({
      accountId: mail.accountId,
      kind: mail.kind,
      ref: mail.ref,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      attachments: mail.attachments?.length
        ? mail.attachments.map((a): MailAttachment => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content.toString('base64'),
          }))
        : null,
      linkSealed: mail.link
        ? sealSecret(this.config.encryptionKey, mail.link, mailLinkPurpose(mail.to))
        : null,
      status: 'queued',
    });
    // Stored as due now: if the job cannot be added (Redis down), the sweeper adds it later.
    await this.queue.enqueue(id);
    this.logger.log({ mail: id, kind: mail.kind, ref: mail.ref }, 'mail queued');
    return id;
  }

  findMessage(id: string): Promise<MailMessage | null> {
    return this.messages.findById(id);
  }
}
