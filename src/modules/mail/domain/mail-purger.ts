import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type RetentionPurger, RetentionPurgers } from '@/modules/audit';
import type { Tx } from '@/platform/db/database';
import { MailMessagesRepository } from '../store/mail-messages.repository';

/**
 * PHI_RETENTION_DAYS (SECURITY.md) for e-mails, registered with the audit module's retention
 * job: e-mails sent about claims hold the patient's name, address and the claim form; queued
 * mail is left to be sent first.
 */
@Injectable()
export class MailPurger implements RetentionPurger, OnModuleInit {
  readonly name = 'mails';

  constructor(
    private readonly purgers: RetentionPurgers,
    private readonly messages: MailMessagesRepository,
  ) {}

  onModuleInit(): void {
    this.purgers.register(this);
  }

  purge(cutoff: Date, limit: number, tx: Tx): Promise<number> {
    return this.messages.purge(cutoff, limit, tx);
  }
}
