import { Column, Entity } from 'typeorm';
import { AccountRecord, CreatedAtColumn, OwnerIdColumn } from '@/platform/db/columns';

/**
 * docs/api.md, The counter: a quote as it was answered (`body`, without its id), with what its
 * printed page names: the patient, the plan, the location of the check it was made on.
 */
@Entity('quotes')
export class Quote extends AccountRecord {
  @Column({ name: 'request_uid', type: 'varchar', length: 256, nullable: true })
  requestUid: string | null;

  @Column({ name: 'person_id', type: 'integer', nullable: true })
  personId: number | null;

  @OwnerIdColumn('location', { nullable: true })
  locationId: string | null;

  @Column({ name: 'patient_name', type: 'varchar', length: 200, nullable: true })
  patientName: string | null;

  @Column({ name: 'plan_name', type: 'varchar', length: 200, nullable: true })
  planName: string | null;

  @Column({ name: 'insurer_code', type: 'varchar', length: 64, nullable: true })
  insurerCode: string | null;

  @Column({ name: 'date_of_service', type: 'date' })
  dateOfService: string;

  @Column({ name: 'patient_age', type: 'integer', nullable: true })
  patientAge: number | null;

  @Column({ type: 'jsonb' })
  body: Record<string, unknown>;

  @CreatedAtColumn({ ms: true })
  createdAt: Date;
}
