import { Injectable } from '@nestjs/common';
import type { Tx } from '@/database/database';
import { WebhookOutbox } from '@/modules/webhooks';
import { SearchTasksRepository } from './search-tasks.repository';

/**
 * What other modules do to verification tasks besides their API (docs/architecture.md, Data
 * access: `verification_tasks` is verification's): retention erasing the tasks of purged
 * requests.
 */
@Injectable()
export class SearchTasks {
  constructor(
    private readonly tasks: SearchTasksRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * PHI_RETENTION_DAYS (SECURITY.md; docs/api.md, Insurers and assisted verification), in the
   * job's transaction: the tasks of the purged requests `requestIds` lose plans, evidence and
   * notes, and their webhook deliveries, which carry the patient as asked, their body.
   */
  async purgeOfRequests(requestIds: string[], tx: Tx): Promise<void> {
    const taskIds = await this.tasks.purgeOfRequests(requestIds, tx);
    if (taskIds.length > 0) await this.outbox.emptyTaskBodies(taskIds, tx);
  }
}
