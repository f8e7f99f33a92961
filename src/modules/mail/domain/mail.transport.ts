import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { formatInstant } from '@/platform/kernel/time';

interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable Message-ID, so a receiver can drop a duplicate of a retried send. */
  messageId: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

/** Raised for an answer that retrying cannot fix (5xx: bad recipient, refused message). */
export class PermanentMailError extends Error {
  override readonly name = 'PermanentMailError';
  /** nodemailer's code (`EENVELOPE`), the SMTP command refused (`RCPT TO`), the reply code. */
  readonly code?: string;
  readonly command?: string;
  readonly responseCode: number;

  constructor(refusal: Error & { code?: string; command?: string; responseCode: number }) {
    super(refusal.message);
    this.code = refusal.code;
    this.command = refusal.command;
    this.responseCode = refusal.responseCode;
  }
}

/**
 * Sends over SMTP (`SMTP_URL`) with nodemailer. Without `SMTP_URL` (development), each message is
 * written as an `.eml` file to `MAIL_DIR` instead, where any mail client can open it.
 */
@Injectable()
export class MailTransport implements OnModuleDestroy {
  private readonly logger = new Logger(MailTransport.name);
  private readonly transporter: Transporter;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    this.transporter = config.smtpUrl
      ? createTransport({
          url: config.smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
        })
      : createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  get mode(): 'smtp' | 'file' {
    return this.config.smtpUrl ? 'smtp' : 'file';
  }

  /**
   * Whether a message may carry a working link: always over SMTP (the mailbox is the recipient's);
   * into an .eml file only outside production, where the file is the developer's mailbox.
   */
  get mayKeepLinks(): boolean {
    return this.mode === 'smtp' || !this.config.isProduction;
  }

  /** Domain for Message-IDs, taken from MAIL_FROM. */
  get domain(): string {
    return /@([A-Za-z0-9.-]+)>?\s*$/.exec(this.config.mailFrom)?.[1] ?? 'vision.localhost';
  }

  /** Delivers one message; returns where it went (the SMTP answer or the file path). */
  async send(message: OutgoingMessage): Promise<string> {
    const mail = {
      from: this.config.mailFrom,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: message.messageId,
      attachments: message.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    };
    if (this.mode === 'file') {
      const info = (await this.transporter.sendMail(mail)) as { message: Buffer };
      return this.writeEml(message.messageId, info.message);
    }
    try {
      const info = (await this.transporter.sendMail(mail)) as { response?: string };
      return `smtp: ${info.response ?? 'accepted'}`;
    } catch (e) {
      const refusal = e as Error & { responseCode?: number };
      const code = refusal.responseCode;
      if (code !== undefined && code >= 500 && code < 600) {
        throw new PermanentMailError({ ...refusal, message: refusal.message, responseCode: code });
      }
      throw e;
    }
  }

  private async writeEml(messageId: string, raw: Buffer): Promise<string> {
    const dir = resolve(this.config.mailDir);
    // Claim e-mails carry patient data: readable by the service's user only (SECURITY.md).
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const stamp = formatInstant(new Date(), 'utc').replace(/[:.]/g, '-');
    const name = `${stamp}-${messageId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 36)}.eml`;
    const path = join(dir, name);
    // Written under a temporary name first, so a reader never opens a half-written file.
    await writeFile(`${path}.tmp`, raw, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
    this.logger.log({ file: name }, 'mail written to MAIL_DIR (SMTP_URL is not set)');
    return path;
  }

  onModuleDestroy(): void {
    this.transporter.close();
  }
}
