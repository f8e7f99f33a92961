import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn, OwnerIdColumn } from '@/platform/db/columns';

export type PatientSex = 'female' | 'male' | 'other' | 'unknown';

/** Stored as given, with every key present (unset → null). */
export interface PatientAddress {
  line1: string | null;
  line2: string | null;
  recipient: string | null;
  city: string | null;
  zipcode: string | null;
  state: string | null;
}

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
