import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import type { Tx } from '@/platform/db/database';
import { TaskRequests, type TaskRequestsPort } from '@/modules/verification';
import { AssistedSearchesRepository, TASK_REQUEST_SQL } from './assisted-searches.repository';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import { SearchQueue } from '../../jobs/search.queue';
import { RequestUpdates } from '../../finish/domain/request-updates';

/**
 * The search side of the verification module's port: the request's SQL pieces for a task's
 * statements (TASK_REQUEST_SQL), its lock, its answer showing its tasks (RequestUpdates: a
 * complete answer also grows), and a task answered making its search due again on the queue it
 * runs on.
 */
@Implements(TaskRequests)
@Injectable()
export class TaskRequestsBinding implements TaskRequestsPort {
  readonly sql = TASK_REQUEST_SQL;

  constructor(
    private readonly assisted: AssistedSearchesRepository,
    private readonly searchQueue: SearchQueue,
    private readonly batchQueue: BatchSearchQueue,
    private readonly updates: RequestUpdates,
  ) {}

  lockRequest(tx: Tx, requestId: string): Promise<void> {
    return this.assisted.lockRequest(requestId, tx);
  }

  showTask(tx: Tx, requestId: string): Promise<void> {
    return this.updates.refresh(tx, requestId);
  }

  wakeInTx(tx: Tx, requestId: string, batchItem: boolean): Promise<boolean> {
    return (batchItem ? this.batchQueue : this.searchQueue).wakeInTx(tx, requestId);
  }
}
