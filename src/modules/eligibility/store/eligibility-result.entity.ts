import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { OwnerIdColumn } from '@/platform/db/columns';
import type { StreetAddress } from '@/lib/person';
import type { PlanStatus } from '@/modules/insurers';
import type { Plan } from '@/lib/benefits';

/** One plan found by one insurer for a request (`results[]`); its id is the result `id`. */
@Entity('eligibility_results')
export class EligibilityResult {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'request_id', type: 'bigint' })
  requestId: string;

  @OwnerIdColumn('account')
  accountId: string;

  @Column({ type: 'smallint' })
  position: number;

  @Column({ name: 'insurer_code', type: 'varchar', length: 64 })
  insurerCode: string;

  @Column({ type: 'varchar', length: 20 })
  status: PlanStatus;

  @Column({ name: 'plan_name', type: 'text' })
  planName: string;

  @Column({ name: 'plan_group', type: 'text' })
  planGroup: string;

  @Column({ name: 'plan_group_id', type: 'text', nullable: true })
  planGroupId: string | null;

  @Column({ name: 'plan_begin_date', type: 'date' })
  planBeginDate: string;

  @Column({ name: 'plan_end_date', type: 'date', nullable: true })
  planEndDate: string | null;

  @Column({ name: 'plan_refresh_date', type: 'date', nullable: true })
  planRefreshDate: string | null;

  @Column({ name: 'plan_is_active', type: 'boolean' })
  planIsActive: boolean;
}

/** A person covered by a result's plan; its id is the person `id`. */
@Entity('eligibility_persons')
export class EligibilityPerson {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'result_id', type: 'bigint' })
  resultId: string;

  @OwnerIdColumn('account')
  accountId: string;

  @Column({ type: 'smallint' })
  position: number;

  @Column({ name: 'first_name', type: 'text' })
  firstName: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName: string;

  @Column({ type: 'date' })
  dob: string;

  /** Null only where a verifier did not see it (sex, address, phone): docs/api.md "Verification tasks". */
  @Column({ type: 'text', nullable: true })
  sex: string | null;

  @Column({ name: 'member_id', type: 'text', nullable: true })
  memberId: string | null;

  @Column({ name: 'ssn_last_four', type: 'text', nullable: true })
  ssnLastFour: string | null;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'jsonb', nullable: true })
  address: StreetAddress | null;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  @Column({ name: 'is_active', type: 'boolean', nullable: true })
  isActive: boolean | null;

  @Column({ name: 'insurer_state', type: 'varchar', length: 3 })
  insurerState: 'inn' | 'oon';

  /**
   * The person's plan, stored here only where a verifier gave it (docs/api.md, Insurers and assisted verification): otherwise it is
   * in the request's stored bodies alone (null here), written once.
   */
  @Column({ type: 'jsonb', nullable: true })
  plan: Plan | null;

  @Column({ name: 'plan_token', type: 'char', length: 64, nullable: true })
  planToken: string | null;

  @Column({ name: 'plan_token_expired_at', type: 'date', nullable: true })
  planTokenExpiredAt: string | null;
}

/** A person as a search finishes with them: the plan in hand, rendered into the bodies. */
export type FoundPerson = EligibilityPerson & { plan: Plan };
