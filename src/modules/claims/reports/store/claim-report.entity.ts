import { Column, Entity } from 'typeorm';
import { OptionalAccountRecord, CreatedAtColumn } from '@/platform/db/columns';

export type ClaimReportSource = 'upload' | 'poller' | 'submission';
export type ClaimReportType = '999' | 'TA1' | '277' | '835';

/**
 * A claim report (docs/api.md, Claim reports and remittances) as received: stored once, before it changes anything, in the
 * same transaction as the changes it makes; a report seen again (same upstream id, or the same
 * bytes for the same account) is not processed again. Its account is the uploading one; null for
 * a report polled from the clearinghouse (any account's).
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
