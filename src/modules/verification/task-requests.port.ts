import { Injectable } from '@nestjs/common';
import type { Tx } from '@/database/database';

/**
 * What verification needs of the search a task belongs to, declared here and implemented by the
 * eligibility module (which binds it at start-up), so that verification never reaches into
 * eligibility's tables or queues: a task answered wakes its search through this port.
 */
export interface TaskRequestsPort {
  /** In the task's transaction: the request's processing answer shows its open task, or none. */
  showTask(tx: Tx, requestId: string): Promise<void>;
  /**
   * In the task's transaction: the request's search is due again (a batch item's on the batch
   * queue). Answers what to run once the transaction has committed, or null when nothing woke.
   */
  wakeInTx(tx: Tx, requestId: string, batchItem: boolean): Promise<(() => Promise<unknown>) | null>;
}

/** The port's one binding, shared by the tasks service and their clocks. */
@Injectable()
export class TaskRequests implements TaskRequestsPort {
  private port: TaskRequestsPort | null = null;

  bind(port: TaskRequestsPort): void {
    this.port = port;
  }

  showTask(tx: Tx, requestId: string): Promise<void> {
    return this.bound().showTask(tx, requestId);
  }

  wakeInTx(tx: Tx, requestId: string, batchItem: boolean) {
    return this.bound().wakeInTx(tx, requestId, batchItem);
  }

  private bound(): TaskRequestsPort {
    if (!this.port)
      throw new Error('No search side is bound to verification tasks (EligibilityModule).');
    return this.port;
  }
}
