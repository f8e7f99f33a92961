import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ClaimServiceLine } from './claim-service-line.entity';

export type ClaimStatus = 'ready';

export interface ClaimAddress {
  line1: string;
  line2: string | null;
  city: string;
  zipcode: string;
  state: string;
  recipient: string | null;
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
  address: ClaimAddress | null;
}

/** An out-of-network vision claim (CONTRACT §5). Immutable once created. */
@Entity('claims')
@Index('claims_account_created_idx', ['accountId', 'createdAt', 'id'])
export class Claim {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'location_id', type: 'uuid' })
  locationId: string;

  /** Public code, `CLM` + 8 Crockford base32 characters. */
  @Column({ type: 'varchar', length: 16, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 16, default: 'ready' })
  status: ClaimStatus;

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

  /** `json` (not jsonb) keeps the caller's object exactly as given. */
  @Column({ type: 'json', nullable: true })
  metadata: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @OneToMany(() => ClaimServiceLine, (s) => s.claim)
  services?: ClaimServiceLine[];
}
