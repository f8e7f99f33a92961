import { Column, Entity, Index, OneToMany } from 'typeorm';
import { AccountRecord, CreatedAtColumn, TimeColumn, OwnerIdColumn } from '@/platform/db/columns';
import type { MailingAddress } from '@/lib/person';
import { ClaimServiceLine } from './claim-service-line.entity';

/** docs/api.md, Claim lifecycle (the arrows between them: claim-lifecycle.ts). */
export const CLAIM_STATUSES = [
  'ready',
  'ready_to_mail',
  'submitted',
  'submission_failed',
  'accepted',
  'rejected',
  'paid',
  'denied',
  'reversed',
] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type SubmissionChannel = 'x12' | 'paper';

/** One status change, as `status_history` answers it. */
export interface ClaimStatusChange {
  status: ClaimStatus;
  /** ISO 8601 with offset. */
  at: string;
  /** Why (the clearinghouse's reason, the payer's status), or null. */
  detail: string | null;
}

/** One CAS reason as a claim or remittance answers it (amounts with four decimals). */
export interface RemittanceAdjustment {
  group: string;
  reason_code: string;
  amount: string;
  description: string;
}

export interface RemittanceRemark {
  code: string;
  description: string;
}

/** One SVC of a CLP: the claim's `remittance` and the remittance's claims answer it alike. */
export interface RemittanceServiceLine {
  codes: string[];
  charge: string;
  paid: string;
  adjustments: RemittanceAdjustment[];
}

/** docs/api.md, Claim reports and remittances: the claim's `remittance`, from the CLP of an 835 (and its header). */
export interface ClaimRemittance {
  remittance_id: string;
  status_code: string;
  charge: string;
  paid_amount: string;
  patient_responsibility: string;
  payer_claim_control_number: string | null;
  paid_at: string | null;
  payment_method: string;
  trace_number: string;
  adjustments: RemittanceAdjustment[];
  remarks: RemittanceRemark[];
  service_lines: RemittanceServiceLine[];
}

/** A person as submitted on the claim (a snapshot; not linked to patient records). */
export interface ClaimPerson {
  first_name: string;
  last_name: string;
  dob: string;
  type: string | null;
  sex: string | null;
  member_id: string | null;
  ssn_last_four: string | null;
  email: string | null;
  phone: string | null;
  address: MailingAddress | null;
}

/** The individual who rendered the care (the 837P's 2310B), as the claim names it. */
export interface ClaimRenderingProvider {
  npi: string;
  first_name: string;
  last_name: string;
  taxonomy_code: string | null;
}

/**
 * An out-of-network vision claim (docs/api.md, Claims): what was claimed is immutable once
 * created; the row is also its own queue row (ClaimsQueue).
 */
@Entity('claims')
@Index('claims_account_created_idx', ['accountId', 'createdAt', 'id'])
export class Claim extends AccountRecord {
  @OwnerIdColumn('location')
  locationId: string;

  /** Public code, `CLM` + 8 Crockford base32 characters. */
  @Column({ type: 'varchar', length: 16, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 24, default: 'ready' })
  status: ClaimStatus;

  @Column({ name: 'status_history', type: 'jsonb', default: () => "'[]'" })
  statusHistory: ClaimStatusChange[];

  @Column({ name: 'submission_channel', type: 'varchar', length: 8, nullable: true })
  submissionChannel: SubmissionChannel | null;

  /** Why the claim took its route: on paper, what electronic filing lacked (docs/api.md, Claims). */
  @Column({ name: 'submission_detail', type: 'varchar', length: 1000, nullable: true })
  submissionDetail: string | null;

  /** The clearinghouse's id of the submitted 837P. */
  @Column({ name: 'clearinghouse_id', type: 'varchar', length: 100, nullable: true })
  clearinghouseId: string | null;

  @TimeColumn('submitted_at', { ms: true, nullable: true })
  submittedAt: Date | null;

  /** The 837P interchange as last sent (patient data: served to its account only). */
  @Column({ name: 'x12_837', type: 'text', nullable: true })
  x12837: string | null;

  /**
   * ISA13 (GS06 and ST02 derive from it) and the creation time of the claim's interchange, fixed
   * before the first attempt: every retry sends the same interchange (docs/api.md, Claims).
   */
  @Column({ name: 'x12_control_number', type: 'integer', nullable: true })
  x12ControlNumber: number | null;

  @TimeColumn('x12_created_at', { ms: true, nullable: true })
  x12CreatedAt: Date | null;

  /** docs/api.md, Claim reports and remittances: what the last 835 that named the claim said (the claim answer's shape). */
  @Column({ type: 'jsonb', nullable: true })
  remittance: ClaimRemittance | null;

  /** 276 status checks made (docs/api.md, Claim reports and remittances: they stop at CLAIM_STATUS_MAX_CHECKS). */
  @Column({ name: 'status_checks', type: 'integer', default: 0 })
  statusChecks: number;

  @TimeColumn('job_due_at', { nullable: true })
  jobDueAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'lease_job', type: 'varchar', length: 300, nullable: true })
  leaseJob: string | null;

  @Column({ name: 'insurer_code', type: 'varchar', length: 64 })
  insurerCode: string;

  @Column({ type: 'jsonb' })
  patient: ClaimPerson;

  @Column({ name: 'primary_member', type: 'jsonb' })
  primaryMember: ClaimPerson;

  /** numeric(14,4): a decimal string, never a JS number. */
  @Column({ name: 'paid_amount', type: 'numeric', precision: 14, scale: 4 })
  paidAmount: string;

  @Column({ name: 'accept_assignment', type: 'boolean', default: false })
  acceptAssignment: boolean;

  /** The claim's own rendering provider; null: the location's. */
  @Column({ name: 'rendering_provider', type: 'jsonb', nullable: true })
  renderingProvider: ClaimRenderingProvider | null;

  /** `json` (not jsonb) keeps the caller's object exactly as given. */
  @Column({ type: 'json', nullable: true })
  metadata: Record<string, unknown> | null;

  @CreatedAtColumn({ ms: true })
  createdAt: Date;

  @OneToMany(() => ClaimServiceLine, (s) => s.claim)
  services?: ClaimServiceLine[];
}
