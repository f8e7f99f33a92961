import type { Tx } from '@/platform/db/database';
import type { Sql } from '@/platform/db/sql';
import { defineHook } from '@/platform/kernel/hooks';

/**
 * The request a task belongs to, in verification's own statements (docs/architecture.md, Data
 * access: the requests' table is eligibility's, which writes these pieces). Each takes fragments
 * of the caller's statement (a column such as `t.request_id`, or a value) and answers a
 * subquery for `JOIN LATERAL (...) alias ON true`.
 */
export interface TaskRequestSql {
  /**
   * The request `requestId` (no row: none) as a task's view shows it: `request_uid`, `query`,
   * and its location of account `accountId`: `location_code`, `location_title`,
   * `location_npi` (NULL without one).
   */
  view(requestId: Sql, accountId: Sql): Sql;
  /** The request's `batch_id` (no row: no such request). */
  batch(requestId: Sql): Sql;
  /**
   * While the request is processing, the insurers it asked (`code`, `n`: their order) without a
   * settled outcome (kept between a search's attempts); no row once it has finished.
   */
  unsettled(requestId: Sql): Sql;
}

/**
 * What verification needs of the search a task belongs to, declared here and implemented by the
 * eligibility module (`@Implements(TaskRequests)`), so that verification never reaches into
 * eligibility's tables or queues: a task's change locks its request, a task answered wakes its
 * search, and a task's view reads its request, all through this port.
 */
export interface TaskRequestsPort {
  /** The request's SQL pieces for verification's statements (a task's view, its lock). */
  readonly sql: TaskRequestSql;
  /** In the task's transaction: locks the request (`FOR UPDATE`) before its task changes. */
  lockRequest(tx: Tx, requestId: string): Promise<void>;
  /** In the task's transaction: the request's processing answer shows its open task, or none. */
  showTask(tx: Tx, requestId: string): Promise<void>;
  /**
   * In the task's transaction: the request's search is due again (a batch item's on the batch
   * queue), and runs once the transaction has committed (`tx.afterCommit`). Answers whether it
   * woke (false: a run holds it or it is due already).
   */
  wakeInTx(tx: Tx, requestId: string, batchItem: boolean): Promise<boolean>;
}

/** The port's hook, injected into the tasks service and their clocks. */
export const TaskRequests = defineHook<TaskRequestsPort>('TaskRequests');
