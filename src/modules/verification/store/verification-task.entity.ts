import { Column, Entity } from 'typeorm';
import { AccountRecord, TimeColumn } from '@/platform/db/columns';
import type { InsurerPlanResult } from '@/modules/insurers';
import type { EvidenceSource, FailReason, TaskState } from '../domain/task-codes';

export * from '../domain/task-codes';

export interface Evidence {
  source: EvidenceSource;
  reference_number: string | null;
  representative: string | null;
  checked_at: string;
}

/** One line of a task's history: what happened, when, and who did it. */
export interface TaskHistoryEntry {
  at: string;
  state: TaskState;
  /** `service`, `api_key:<prefix>` or `user:<email>`. */
  actor: string;
  detail: string | null;
}

/**
 * docs/api.md, Insurers and assisted verification: one insurer of one eligibility request, answered by a person (staff, an
 * outsourced team or a portal bot) instead of a 270/271. Created by the search run that meets
 * an assisted insurer; the request stays `processing` until the task is settled.
 */
@Entity('verification_tasks')
export class VerificationTask extends AccountRecord {
  @Column({ name: 'request_id', type: 'bigint' })
  requestId: string;

  @Column({ name: 'insurer_code', type: 'varchar', length: 64 })
  insurerCode: string;

  @Column({ type: 'varchar', length: 12 })
  state: TaskState;

  @TimeColumn('due_by', { ms: true })
  dueBy: Date;

  @Column({ name: 'lease_holder', type: 'varchar', length: 100, nullable: true })
  leaseHolder: string | null;

  @Column({ name: 'lease_holder_name', type: 'varchar', length: 200, nullable: true })
  leaseHolderName: string | null;

  @TimeColumn('lease_until', { ms: true, nullable: true })
  leaseUntil: Date | null;

  /** The plans the verifier gave, as the search stores them (InsurerPlanResult). */
  @Column({ type: 'jsonb', nullable: true })
  plans: InsurerPlanResult[] | null;

  @Column({ type: 'jsonb', nullable: true })
  evidence: Evidence | null;

  @Column({ name: 'failure_reason', type: 'varchar', length: 24, nullable: true })
  failureReason: FailReason | null;

  /** The failure's detail, or the question of `needs_info` and the practice's answer. */
  @Column({ type: 'text', nullable: true })
  detail: string | null;

  @Column({ type: 'jsonb' })
  history: TaskHistoryEntry[];

  @TimeColumn('overdue_notified_at', { ms: true, nullable: true })
  overdueNotifiedAt: Date | null;

  /** When a verifier first claimed it, and when it was answered (completed or failed). */
  @TimeColumn('claimed_at', { ms: true, nullable: true })
  claimedAt: Date | null;

  @TimeColumn('answered_at', { ms: true, nullable: true })
  answeredAt: Date | null;

  /**
   * The persons it answers for, as reuse looks them up (docs/api.md, Universal Search insurer by
   * insurer): hashes of account, insurer and member id + date of birth or names + date of birth.
   */
  @Column({ name: 'reuse_keys', type: 'text', array: true, nullable: true })
  reuseKeys: string[] | null;

  /** How many later searches it answered without a new task, and the last one's time. */
  @Column({ name: 'reused_count', type: 'integer', default: 0 })
  reusedCount: number;

  @TimeColumn('last_reused_at', { ms: true, nullable: true })
  lastReusedAt: Date | null;

  @TimeColumn('created_at', { ms: true })
  createdAt: Date;

  @TimeColumn('updated_at', { ms: true })
  updatedAt: Date;
}
