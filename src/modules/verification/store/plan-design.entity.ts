import { Column, Entity } from 'typeorm';
import { AccountRecord, TimeColumn } from '@/platform/db/columns';

/**
 * docs/api.md, Plan designs: the benefit tree a verifier last gave for one group of one insurer
 * (`items` as V2 answers print them, without `*_accepted`, `*_reserved`, `last_service_date`,
 * `next_eligible_date`, `last_service` and `next_eligible`), for the account's next task of that group to start from. One per
 * account, insurer and `group_key` (the plan's group id, else its group's name).
 */
@Entity('plan_designs')
export class PlanDesign extends AccountRecord {
  @Column({ name: 'insurer_code', type: 'varchar', length: 64 })
  insurerCode: string;

  @Column({ name: 'group_key', type: 'varchar', length: 200 })
  groupKey: string;

  @Column({ name: 'plan_name', type: 'varchar', length: 200 })
  planName: string;

  @Column({ name: 'plan_group', type: 'varchar', length: 200, nullable: true })
  planGroup: string | null;

  @Column({ name: 'plan_group_id', type: 'varchar', length: 64, nullable: true })
  planGroupId: string | null;

  @Column({ type: 'jsonb' })
  items: Record<string, unknown>[];

  /** docs/api.md, The counter: the group's materials price list, as a plan prints it. */
  @Column({ type: 'jsonb', nullable: true })
  materials: Record<string, unknown> | null;

  /** How many completed tasks started from it (`plan_design_id`), and the last one's time. */
  @Column({ name: 'used_count', type: 'integer', default: 0 })
  usedCount: number;

  @TimeColumn('last_used_at', { ms: true, nullable: true })
  lastUsedAt: Date | null;

  @TimeColumn('created_at', { ms: true })
  createdAt: Date;

  @TimeColumn('updated_at', { ms: true })
  updatedAt: Date;
}
