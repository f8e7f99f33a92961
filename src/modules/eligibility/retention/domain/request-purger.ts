import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { type RetentionPurger, RetentionPurgers } from '@/modules/audit';
import type { Tx } from '@/platform/db/database';
import { SearchTasks } from '@/modules/verification';
import { WebhookOutbox } from '@/modules/webhooks';
import { insurersOfTail, purgedBody } from './purged-answer';
import { RequestPurgesRepository } from '../store/request-purges.repository';

/**
 * PHI_RETENTION_DAYS (SECURITY.md) for eligibility requests, registered with the audit module's
 * retention job: a batch of requests older than the limit is locked and loses its patient data
 * (results, persons, insurer exchanges, query, outcomes; the stored bodies become the purged
 * answer), their webhook deliveries' bodies become that answer too, and their verification tasks
 * lose plans, evidence and notes (verification empties those tasks' deliveries). Each table is
 * changed by its owner, all in the job's transaction.
 */
@Implements(RetentionPurgers)
@Injectable()
export class RequestPurger implements RetentionPurger {
  readonly name = 'purged';

  constructor(
    private readonly requests: RequestPurgesRepository,
    private readonly outbox: WebhookOutbox,
    private readonly tasks: SearchTasks,
  ) {}

  async purge(cutoff: Date, limit: number, tx: Tx): Promise<number> {
    const rows = await this.requests.lockRequests(cutoff, limit, tx);
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    const bodies = rows.map((r) =>
      purgedBody(r.uid, r.status, r.error_code, insurersOfTail(r.insurers)),
    );
    await this.requests.purgeRequests(ids, bodies, tx);
    await this.outbox.purgeRequestBodies(ids, bodies, tx);
    await this.tasks.purgeOfRequests(ids, tx);
    return rows.length;
  }
}
