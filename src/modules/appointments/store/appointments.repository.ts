import { Clock } from '@/platform/kernel/clock';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  type KeysetPage,
  type KeysetPageRequest,
  keysetPage,
} from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, queryOne, sql } from '@/platform/db/sql';
import type { AppointmentStatus, CoverageFilter } from '../domain/appointment-words';
import type { StoredBy } from '../domain/appointment-access';
import { Appointment, type StoredPatient } from './appointment.entity';
import {
  APPOINTMENT_COLUMNS,
  cancelOne,
  cancelUnlisted,
  upsertChunk,
  upsertOne,
} from './appointments.sql';

/** What an upsert writes of one appointment; instants as RFC 3339 text, as sent. */
export interface AppointmentValues {
  external_id: string;
  starts_at: string;
  ends_at: string | null;
  status: AppointmentStatus;
  location_id: string;
  services: string[];
  patient_code: string | null;
  patient: StoredPatient | null;
  insurer_codes: string[];
  source_updated_at: string | null;
  /** The visit's date where it happens: `starts_at`'s own date, before its offset. */
  visit_date: string;
  /** The offset `starts_at` was sent with, in minutes east of UTC (the Schedule page's clock). */
  starts_offset: number | null;
  /** The patient and insurers a check asks about, hashed (a fresh check of the same is reused). */
  check_key: string;
}

/** An upsert's row: the appointment and who stores it (appointment-access.ts). */
export type StoredValues = AppointmentValues & StoredBy;

type UpsertOutcome = 'created' | 'updated' | 'unchanged';

/** The worklist's filters, resolved (a location code to its id). */
interface AppointmentFilter {
  from?: string | null;
  to?: string | null;
  locationId?: string | null;
  coverageState?: CoverageFilter | null;
}

/** A sync's window: [from, to), of one location or (null) all of them. */
export interface SyncWindow {
  from: string;
  to: string;
  locationId: string | null;
}

/** `appointments` and its statements (docs/api.md, Appointments). */
@Injectable()
export class AppointmentsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores one appointment in one statement (INSERT ... ON CONFLICT ... DO UPDATE WHERE), and
   * answers it as it now stands with what happened to it.
   */
  async upsertOne(
    accountId: string,
    values: StoredValues,
    tx?: Tx,
  ): Promise<{ appointment: Appointment; outcome: UpsertOutcome }> {
    const row = await queryOne<Appointment & { outcome: UpsertOutcome }>(
      this.db,
      upsertOne({ accountId, rows: JSON.stringify([values]), now: this.clock.now() }),
      tx,
    );
    if (row) {
      const { outcome, ...appointment } = row;
      return { appointment, outcome };
    }
    // Unchanged, but stored by a transaction that committed after this statement's snapshot
    // was taken: read it now.
    return {
      appointment: (await this.findOne(accountId, values.external_id, tx))!,
      outcome: 'unchanged',
    };
  }

  /**
   * Stores a sync's chunk in one statement (the same upsert as `upsertOne`), answering how many
   * appointments it created and how many it changed; the others changed nothing. The external
   * ids of a chunk are distinct (one statement cannot change a row twice).
   */
  async upsertChunk(
    accountId: string,
    values: StoredValues[],
    tx?: Tx,
  ): Promise<{ created: number; updated: number }> {
    const counts = await queryOne<{ created: number; updated: number }>(
      this.db,
      upsertChunk({ accountId, rows: JSON.stringify(values), now: this.clock.now() }),
      tx,
    );
    return counts!;
  }

  /**
   * Every appointment of the window not `listed` and not yet `cancelled` becomes `cancelled`;
   * answers how many did.
   */
  async cancelUnlisted(
    accountId: string,
    window: SyncWindow,
    listed: string[],
    tx?: Tx,
  ): Promise<number> {
    const row = await queryOne<{ cancelled: number }>(
      this.db,
      cancelUnlisted({ accountId, ...window, listed }),
      tx,
    );
    return row!.cancelled;
  }

  /** The appointment `externalId` becomes `cancelled` (if not already); answers it, or null. */
  async cancelOne(accountId: string, externalId: string, tx?: Tx): Promise<Appointment | null> {
    const row = await queryOne<Appointment>(this.db, cancelOne(accountId, externalId), tx);
    // A concurrent cancel committed after this statement's snapshot: read what it left.
    if (row && row.status !== 'cancelled') return this.findOne(accountId, externalId, tx);
    return row;
  }

  /**
   * Serialises, until `tx` ends, the syncs of one account: each cancels what the others may be
   * storing, and their row locks would otherwise be taken in different orders.
   */
  async lockSyncs(accountId: string, tx: Tx): Promise<void> {
    const key = `appointments-sync:${accountId}`;
    await execute(this.db, sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`, tx);
  }

  async findOne(accountId: string, externalId: string, tx?: Tx): Promise<Appointment | null> {
    return queryOne(
      this.db,
      sql`SELECT ${APPOINTMENT_COLUMNS('a')} FROM appointments a
       WHERE a.account_id = ${accountId} AND a.external_id = ${externalId}`,
      tx,
    );
  }

  /**
   * One page of the account's appointments matching `filter`, by `starts_at` (earliest first),
   * keyset-paged on (starts_at, id): one range scan of appointments_account_starts_idx (or its
   * location twin) from the cursor's row.
   */
  page(
    accountId: string,
    filter: AppointmentFilter,
    request: KeysetPageRequest,
  ): Promise<KeysetPage<Appointment>> {
    const where = [sql`a.account_id = ${accountId}`];
    if (filter.locationId) where.push(sql`a.location_id = ${filter.locationId}`);
    if (filter.from) where.push(sql`a.starts_at >= ${filter.from}::timestamptz`);
    if (filter.to) where.push(sql`a.starts_at < ${filter.to}::timestamptz`);
    if (filter.coverageState === 'stale') where.push(sql`a.coverage_stale`);
    else if (filter.coverageState) where.push(sql`a.coverage_state = ${filter.coverageState}`);
    const select = sql`SELECT ${entityColumns(this.db, Appointment, 'a')} FROM appointments a
      WHERE ${sql.join(where, ' AND ')}`;
    return keysetPage(this.db, select, request, { createdAt: 'startsAt', ascending: true });
  }
}
