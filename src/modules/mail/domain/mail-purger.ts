import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { type RetentionPurger, RetentionPurgers } from '@/modules/audit';
import type { Tx } from '@/platform/db/database';
import { MailMessagesRepository } from '../store/mail-messages.repository';

/**
 * PHI_RETENTION_DAYS (SECURITY.md) for e-mails, registered with the audit module's retention
 * job: e-mails sent about claims hold the patient's name, address and the claim form; queued
 * mail is left to be sent first.
 */
@Implements(RetentionPurgers)
@Injectable()
export class MailPurger implements RetentionPurger {
  readonly name = 'mails';

  constructor(private readonly messages: MailMessagesRepository) {}

  purge(cutoff: Date, limit: number, tx: Tx): Promise<number> {
    return this.messages.purge(cutoff, limit, tx);
  }
}
