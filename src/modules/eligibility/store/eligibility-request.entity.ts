import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { OwnerIdColumn, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';
import type { MemberQuery } from '@/modules/insurers';
import type { SettledOutcomes, StoredOptions } from '../domain/search-outcome';

export type EligibilityStatus = 'processing' | 'complete' | 'error';
export type EligibilityErrorCode = 'insurer_problem' | 'unexpected_error';
export type EligibilityKind = 'search' | 'details';

/** A search (or a details request for one person of a search), from acceptance to its result. */
@Entity('eligibility_requests')
export class EligibilityRequest {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @OwnerIdColumn('account')
  accountId: string;

  @Column({ type: 'varchar', length: 256 })
  uid: string;

  @Column({ type: 'varchar', length: 16 })
  kind: EligibilityKind;

  @Column({ name: 'parent_id', type: 'bigint', nullable: true })
  parentId: string | null;

  @OwnerIdColumn('location')
  locationId: string;

  @Column({ name: 'insurer_codes', type: 'text', array: true })
  insurerCodes: string[];

  /** The patient as the caller described them (needed again after a restart). */
  @Column({ type: 'jsonb' })
  query: MemberQuery;

  /** Details requests: the result and person of the parent they are about. */
  @Column({ type: 'jsonb', nullable: true })
  target: { result_id: number; person_id: number } | null;

  @Column({ type: 'varchar', length: 16 })
  status: EligibilityStatus;

  @Column({ name: 'error_code', type: 'varchar', length: 32, nullable: true })
  errorCode: EligibilityErrorCode | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** Settled per-insurer outcomes between attempts (SearchRunner); null once finished. */
  @Column({ name: 'insurer_outcomes', type: 'jsonb', nullable: true })
  insurerOutcomes: SettledOutcomes | null;

  /** docs/api.md, Universal Search insurer by insurer: `wait_for`, `assisted`, `max_age_hours` (null: defaults). */
  @Column({ type: 'jsonb', nullable: true })
  options: StoredOptions | null;

  /** When the next search job should run; the maintenance loop re-enqueues overdue ones. */
  @TimeColumn('job_due_at')
  jobDueAt: Date;

  /** The V1 and V2 result bodies, rendered once at completion (webhooks send these bytes). */
  @Column({ name: 'body_v1', type: 'text', nullable: true })
  bodyV1: string | null;

  @Column({ name: 'body_v2', type: 'text', nullable: true })
  bodyV2: string | null;

  /** Batch items (docs/api.md, Batches): the batch, and the item's key for keyset paging within it. */
  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId: string | null;

  @Column({ name: 'batch_key', type: 'uuid', nullable: true })
  batchKey: string | null;

  /**
   * Null for a client's own request; `appointment` for a check the service runs before a visit
   * (docs/api.md, Appointments), worked like a batch item (BatchSearchQueue).
   */
  @Column({ type: 'varchar', length: 16, nullable: true })
  origin: 'appointment' | null;

  /** Batch items: when the search first ran (the watchdog's clock for them). */
  @TimeColumn('started_at', { nullable: true })
  startedAt: Date | null;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('completed_at', { nullable: true })
  completedAt: Date | null;
}
