import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { UuidIdColumn } from '@/platform/db/columns';
import type { Claim } from './claim.entity';

/** One service of a claim (1 to 6 per claim, kept in the order given). */
@Entity('claim_services')
export class ClaimServiceLine {
  @UuidIdColumn()
  id: string;

  @Column({ name: 'claim_id', type: 'uuid' })
  claimId: string;

  @ManyToOne('Claim', 'services', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'claim_id' })
  claim?: Claim;

  @Column({ type: 'smallint' })
  position: number;

  /** CPT/HCPCS codes, e.g. 92014, V2100. */
  @Column({ type: 'text', array: true })
  codes: string[];

  @Column({ name: 'service_date', type: 'date' })
  serviceDate: string;

  @Column({ type: 'integer' })
  quantity: number;

  /** numeric(14,4): a decimal string. */
  @Column({ type: 'numeric', precision: 14, scale: 4 })
  cost: string;

  /** ICD-10 codes, e.g. H52.13. */
  @Column({ name: 'diagnosis_codes', type: 'text', array: true, default: () => "'{}'" })
  diagnosisCodes: string[];
}
