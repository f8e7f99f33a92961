import { Column, Entity, Index, Unique } from 'typeorm';
import { AccountRecord, CreatedAtColumn, OwnerIdColumn, TimeColumn } from '@/platform/db/columns';
import type { AskedPatient } from '@/lib/person';
import type { AppointmentStatus, CoverageState } from '../domain/appointment-words';
import type { CoverageBasis } from '../domain/coverage';

/** The patient as sent (the eligibility request's `patient`), with its `subscriber` or null. */
export type StoredPatient = AskedPatient;

/**
 * What the coverage checks write beside `coverage_state` (docs/api.md, Appointments): when the
 * last answer came, until when it is fresh, its eligibility request, what changed and the
 * benefits on the visit's date; and, never answered, what the answer said whatever the date
 * (`basis`, to read it again for another date) and the last answered state (`answered_state`,
 * what the next answer is compared with while a check runs).
 */
export interface StoredCoverage {
  checked_at?: string | null;
  fresh_until?: string | null;
  request_uid?: string | null;
  changes?: unknown[];
  benefits?: Record<string, unknown> | null;
  basis?: CoverageBasis;
  answered_state?: string;
}

/**
 * An appointment of the practice system (docs/api.md, Appointments), one per account and
 * `external_id`. Written by one statement per upsert or sync chunk (AppointmentsRepository).
 */
@Entity('appointments')
@Unique('appointments_account_external_id_key', ['accountId', 'externalId'])
@Index('appointments_account_starts_idx', ['accountId', 'startsAt', 'id'])
@Index('appointments_account_location_starts_idx', ['accountId', 'locationId', 'startsAt', 'id'])
export class Appointment extends AccountRecord {
  @Column({ name: 'external_id', type: 'varchar', length: 64 })
  externalId: string;

  @TimeColumn('starts_at')
  startsAt: Date;

  /**
   * The offset `starts_at` was sent with, minutes east of UTC (null: stored before it was kept),
   * so a page shows the visit at the practice's own clock when its location names no time zone.
   */
  @Column({ name: 'starts_offset', type: 'smallint', nullable: true })
  startsOffset: number | null;

  @TimeColumn('ends_at', { nullable: true })
  endsAt: Date | null;

  @Column({ type: 'varchar', length: 16 })
  status: AppointmentStatus;

  @OwnerIdColumn('location')
  locationId: string;

  @Column({ type: 'text', array: true })
  services: string[];

  /** A patient record of the account (`PAT…`), or null when `patient` is given. */
  @Column({ name: 'patient_code', type: 'varchar', length: 16, nullable: true })
  patientCode: string | null;

  @Column({ type: 'jsonb', nullable: true })
  patient: StoredPatient | null;

  @Column({ name: 'insurer_codes', type: 'text', array: true })
  insurerCodes: string[];

  @TimeColumn('source_updated_at', { nullable: true })
  sourceUpdatedAt: Date | null;

  @Column({ name: 'coverage_state', type: 'varchar', length: 24 })
  coverageState: CoverageState;

  /** The last answer will be older than the policy's `freshness_hours` when the visit starts. */
  @Column({ name: 'coverage_stale', type: 'boolean', default: false })
  coverageStale: boolean;

  @Column({ type: 'jsonb', nullable: true })
  coverage: StoredCoverage | null;

  @TimeColumn('next_check_at', { nullable: true })
  nextCheckAt: Date | null;

  /** The API key whose write the appointment stands as (null: a web user's, or before it was kept). */
  @Column({ name: 'stored_by_api_key_id', type: 'uuid', nullable: true })
  storedByApiKeyId: string | null;

  /** The web user whose write the appointment stands as. */
  @Column({ name: 'stored_by_user_id', type: 'uuid', nullable: true })
  storedByUserId: string | null;

  /**
   * Whether checks run by themselves: its storer could start eligibility requests
   * (SECURITY.md, API key scopes: `eligibility:write`).
   */
  @Column({ name: 'auto_checks', type: 'boolean', default: true })
  autoChecks: boolean;

  @CreatedAtColumn({ ms: true })
  createdAt: Date;

  @TimeColumn('updated_at', { ms: true })
  updatedAt: Date;
}
