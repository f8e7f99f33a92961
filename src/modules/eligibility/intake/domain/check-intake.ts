import { Injectable } from '@nestjs/common';
import { generateUid } from '@/platform/kernel/codes';
import type { Tx } from '@/platform/db/database';
import type { MemberQuery } from '@/modules/insurers';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import { CheckRequestsRepository } from '../store/check-requests.repository';

/** A check the appointments module asks for. */
export interface CheckOrder {
  accountId: string;
  locationId: string;
  insurerCodes: string[];
  query: MemberQuery;
  /** The latest a person's task may be due (an hour before the visit). */
  tasksDueBy: Date;
}

/**
 * Appointments' checks as eligibility requests (docs/api.md, Appointments): each its own
 * `request_uid`, listed and audited like any, following Universal Search's rules with
 * `wait_for: "electronic"`, worked at batch-item priority (BatchSearchQueue). `storeInTx` writes
 * them in the caller's transaction (the appointments' schedule moves with them) and wakes workers
 * once it has committed (the rows are due already: a lost Redis only delays them).
 */
@Injectable()
export class CheckIntake {
  constructor(
    private readonly requests: CheckRequestsRepository,
    private readonly queue: BatchSearchQueue,
  ) {}

  /** Stores the checks; answers each one's request uid and id, in order. */
  async storeInTx(tx: Tx, orders: CheckOrder[]): Promise<{ uid: string; id: string }[]> {
    const rows = orders.map((o) => ({
      account_id: o.accountId,
      uid: generateUid(),
      location_id: o.locationId,
      codes: o.insurerCodes,
      query: o.query,
      options: { wait_for: 'electronic' as const, tasks_due_by: o.tasksDueBy.toISOString() },
    }));
    const ids = await this.requests.insert(rows, tx);
    this.queue.dispatchAllInTx(tx, ids);
    return rows.map((r, i) => ({ uid: r.uid, id: ids[i] }));
  }
}
