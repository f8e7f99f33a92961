import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { type RetentionPurger, RetentionPurgers } from '@/modules/audit';
import type { Tx } from '@/platform/db/database';
import { QuotesRepository } from '../store/quotes.repository';

/**
 * PHI_RETENTION_DAYS (SECURITY.md) for quotes, registered with the audit module's retention job:
 * a quote names the patient, their plan and their order (docs/api.md, The counter).
 */
@Implements(RetentionPurgers)
@Injectable()
export class QuotePurger implements RetentionPurger {
  readonly name = 'quotes';

  constructor(private readonly quotes: QuotesRepository) {}

  purge(cutoff: Date, limit: number, tx: Tx): Promise<number> {
    return this.quotes.purge(cutoff, limit, tx);
  }
}
