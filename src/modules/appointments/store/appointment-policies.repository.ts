import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { queryOne, sql } from '@/platform/db/sql';
import { AppointmentPolicy } from './appointment-policy.entity';

/** What an account's policy holds (docs/api.md, Appointments). */
type PolicyValues = Pick<
  AppointmentPolicy,
  'onBooking' | 'daysBefore' | 'hoursBefore' | 'freshnessHours' | 'statuses'
>;

/** A policy row as the entity names its fields. */
const RETURNED = sql`account_id AS "accountId", on_booking AS "onBooking", days_before AS "daysBefore",
  hours_before AS "hoursBefore", freshness_hours AS "freshnessHours", statuses,
  updated_at AS "updatedAt"`;

/** `appointment_policies`: at most one row per account. */
@Injectable()
export class AppointmentPoliciesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The account's policy, or null while it has none (the defaults apply). One plain statement:
   * every check's answer reads it (bench scenario 8).
   */
  async find(accountId: string, tx?: Tx): Promise<AppointmentPolicy | null> {
    return queryOne(
      this.db,
      sql`SELECT ${RETURNED} FROM appointment_policies WHERE account_id = ${accountId}`,
      tx,
    );
  }

  /** Stores the account's policy, replacing the one it had; answers it as stored. */
  async save(accountId: string, values: PolicyValues, tx?: Tx): Promise<AppointmentPolicy> {
    const row = await queryOne<AppointmentPolicy>(
      this.db,
      sql`INSERT INTO appointment_policies AS p
         (account_id, on_booking, days_before, hours_before, freshness_hours, statuses)
       VALUES (${accountId}, ${values.onBooking}, ${values.daysBefore}, ${values.hoursBefore},
         ${values.freshnessHours}, ${values.statuses})
       ON CONFLICT (account_id) DO UPDATE SET on_booking = EXCLUDED.on_booking,
         days_before = EXCLUDED.days_before, hours_before = EXCLUDED.hours_before,
         freshness_hours = EXCLUDED.freshness_hours, statuses = EXCLUDED.statuses, updated_at = now()
       RETURNING ${RETURNED}`,
      tx,
    );
    return row!;
  }
}
