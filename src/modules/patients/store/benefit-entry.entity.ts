import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn } from '@/platform/db/columns';

/**
 * A service a person of the practice recorded on a patient (docs/api.md, Patients: benefit
 * history): which insurer's benefit was had on which day. One per patient, insurer, benefit and
 * day; the same again replaces its note.
 */
@Entity('patient_benefit_history')
@Index('patient_benefit_history_patient_idx', ['patientId', 'serviceDate'])
export class PatientBenefitEntry extends AccountRecord {
  @Column({ name: 'patient_id', type: 'uuid' })
  patientId: string;

  @Column({ name: 'insurer_code', type: 'varchar', length: 64 })
  insurerCode: string;

  @Column({ name: 'benefit_code', type: 'varchar', length: 128 })
  benefitCode: string;

  /** `YYYY-MM-DD` (the pg driver returns `date` columns as strings here). */
  @Column({ name: 'service_date', type: 'date' })
  serviceDate: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  note: string | null;

  @CreatedAtColumn({ ms: true })
  createdAt: Date;
}
