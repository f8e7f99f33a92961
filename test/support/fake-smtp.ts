import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: Buffer;
}

/**
 * A real SMTP server in the test process. Its refusals echo the recipients, as real servers do
 * (Postfix: `550 5.1.1 <to>: Recipient address rejected`), so a test can tell whether an SMTP
 * answer reached the logs.
 */
export class TestSmtp {
  readonly received: Received[] = [];
  /** Answers for the next DATA commands (e.g. 451 = try later); empty → accept. */
  readonly dataAnswers: number[] = [];
  /** Recipients refused with 550 (a permanent error). */
  readonly refusedRecipients = new Set<string>();
  private server!: SMTPServer;
  port = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refusedRecipients.has(address.address)) {
          const text = `<${address.address}>: Recipient address rejected: No such user here`;
          return callback(Object.assign(new Error(text), { responseCode: 550 }));
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          const answer = this.dataAnswers.shift();
          if (answer) {
            const text = `Mailbox busy, try again later: <${to.join('>, <')}>`;
            return callback(Object.assign(new Error(text), { responseCode: answer }));
          }
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to,
            raw: Buffer.concat(chunks),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
