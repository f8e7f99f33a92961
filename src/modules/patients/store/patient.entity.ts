import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn, OwnerIdColumn } from '@/platform/db/columns';
import { everyKey, type MailingAddress, type Nullable } from '@/lib/person';

export type PatientSex = 'female' | 'male' | 'other' | 'unknown';

/** Stored as given, with every key present (unset → null). */
export type PatientAddress = Nullable<MailingAddress>;

/** An address as a body gives it or a row holds it, with every key, in the answer's order. */
export const patientAddress = (a: Partial<PatientAddress>): PatientAddress =>
  everyKey(a, ['line1', 'line2', 'recipient', 'city', 'zipcode', 'state']);

/** A patient record of one account (docs/api.md, Patients). Names are stored lower-cased. */
@Entity('patients')
@Index('patients_account_created_idx', ['accountId', 'createdAt', 'id'])
@Index('patients_similar_idx', ['accountId', 'lastName', 'firstName', 'dob'])
export class Patient extends AccountRecord {
  @OwnerIdColumn('location')
  locationId: string;

  /** Public code, `PAT` + 8 Crockford base32 characters. */
  @Column({ type: 'varchar', length: 16, unique: true })
  code: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100 })
  firstName: string;

  @Column({ name: 'middle_name', type: 'varchar', length: 100, nullable: true })
  middleName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 100 })
  lastName: string;

  /** `YYYY-MM-DD` (the pg driver returns `date` columns as strings here). */
  @Column({ type: 'date' })
  dob: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  sex: PatientSex | null;

  @Column({ name: 'ssn_last_four', type: 'char', length: 4, nullable: true })
  ssnLastFour: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  phone: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address: PatientAddress | null;

  @Column({ name: 'account_number', type: 'varchar', length: 64, nullable: true })
  accountNumber: string | null;

  /** Millisecond precision, so the keyset cursor (a JS Date) names a row exactly. */
  @CreatedAtColumn({ ms: true })
  createdAt: Date;
}
