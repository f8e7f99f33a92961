import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Tx } from '@/database/database';
import { TaskRequests, type TaskRequestsPort } from '@/modules/verification';
import { showVerification } from './assisted-searches.repository';
import { BatchSearchQueue } from './batch-search.queue';
import { SearchQueue } from './search.queue';

/**
 * The search side of the verification module's port: a task's request shows its open task in
 * its processing answer, and a task answered makes its search due again on the queue it runs on.
 */
@Injectable()
export class TaskRequestsBinding implements TaskRequestsPort, OnModuleInit {
  constructor(
    private readonly requests: TaskRequests,
    private readonly searchQueue: SearchQueue,
    private readonly batchQueue: BatchSearchQueue,
  ) {}

  onModuleInit(): void {
    this.requests.bind(this);
  }

  showTask(tx: Tx, requestId: string): Promise<void> {
    return showVerification(tx, requestId);
  }

  async wakeInTx(tx: Tx, requestId: string, batchItem: boolean) {
    const queue = batchItem ? this.batchQueue : this.searchQueue;
    return (await queue.wakeInTx(tx, requestId)) ? () => queue.dispatch(requestId) : null;
  }
}
