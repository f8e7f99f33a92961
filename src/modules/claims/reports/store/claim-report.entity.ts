import { Column, Entity } from 'typeorm';
import { OptionalAccountRecord, CreatedAtColumn } from '@/platform/db/columns';

export type ClaimReportSource = 'upload' | 'poller' | 'submission';
export type ClaimReportType = '999' | 'TA1' | '277' | '835';

/**
 * A claim report as received (docs/api.md, Claim reports and remittances), stored once. Its
 * account is the uploading one; null for a polled report (any account's).
 */
@Entity('claim_reports')
export class ClaimReport extends OptionalAccountRecord {
  @Column({ type: 'varchar', length: 12 })
  source: ClaimReportSource;

  /** The clearinghouse's report id (poller). */
  @Column({ name: 'external_id', type: 'varchar', length: 200, nullable: true })
  externalId: string | null;

  @Column({ name: 'content_sha256', type: 'char', length: 64 })
  contentSha256: string;

  @Column({ type: 'varchar', length: 4 })
  type: ClaimReportType;

  @Column({ type: 'text' })
  x12: string;

  @Column({ name: 'claims_matched', type: 'integer', default: 0 })
  claimsMatched: number;

  @Column({ name: 'claims_unmatched', type: 'integer', default: 0 })
  claimsUnmatched: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  warnings: string[];

  @CreatedAtColumn({ ms: true })
  createdAt: Date;
}
