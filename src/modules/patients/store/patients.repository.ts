import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { escapeLike } from '@/platform/kernel/keyset-cursor';
import {
  type KeysetPage,
  type KeysetPageRequest,
  keysetPage,
  keysetSql,
} from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql, type Sql } from '@/platform/db/sql';
import { Patient } from './patient.entity';

/** The list's filters, already resolved (a location code to its id). */
export interface PatientFilter {
  locationId?: string | null;
  dob?: string | null;
  accountNumber?: string | null;
  /** Up to five lower-case words, each matching a first, middle or last name. */
  words: string[];
}

/** What makes two patients "similar" (docs/api.md, Patients): the same names and date of birth. */
export interface SimilarKey {
  accountId: string;
  firstName: string;
  lastName: string;
  dob: string;
}

/** A patient as it is stored; the columns left out are NULL. */
export type NewPatient = Pick<
  Patient,
  'accountId' | 'locationId' | 'code' | 'firstName' | 'lastName' | 'dob'
> &
  Partial<
    Pick<
      Patient,
      'middleName' | 'sex' | 'ssnLastFour' | 'email' | 'phone' | 'address' | 'accountNumber'
    >
  >;

/** Patients (docs/api.md, Patients) and their links to eligibility requests. */
@Injectable()
export class PatientsRepository {
  private readonly columns: Sql;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.columns = entityColumns(db, Patient, 'p');
  }

  /**
   * Serialises, until `tx` ends, the creations of patients with `key`'s values, so the similarity
   * check holds under concurrent requests.
   */
  async lockSimilar(key: SimilarKey, tx: Tx): Promise<void> {
    const lock = `patient-similar:${key.accountId}:${key.lastName}:${key.firstName}:${key.dob}`;
    await query(this.db, sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))`, tx);
  }

  /** The oldest patient with `key`'s values, if any. */
  findSimilar(key: SimilarKey, tx?: Tx): Promise<Patient | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.columns} FROM patients p
       WHERE p.account_id = ${key.accountId} AND p.first_name = ${key.firstName}
         AND p.last_name = ${key.lastName} AND p.dob = ${key.dob}
       ORDER BY p.created_at ASC, p.id ASC LIMIT 1`,
      tx,
    );
  }

  /** Stores a new patient; answers it with its generated columns. */
  async insert(v: NewPatient, tx?: Tx): Promise<Patient> {
    const patient = await queryOne<Patient>(
      this.db,
      sql`INSERT INTO patients AS p (account_id, location_id, code, first_name, middle_name, last_name,
         dob, sex, ssn_last_four, email, phone, address, account_number)
       VALUES (${v.accountId}, ${v.locationId}, ${v.code}, ${v.firstName}, ${v.middleName ?? null},
         ${v.lastName}, ${v.dob}, ${v.sex ?? null}, ${v.ssnLastFour ?? null}, ${v.email ?? null},
         ${v.phone ?? null}, ${v.address ? JSON.stringify(v.address) : null}::jsonb,
         ${v.accountNumber ?? null})
       RETURNING ${this.columns}`,
      tx,
    );
    return patient!;
  }

  findOne(accountId: string, code: string): Promise<Patient | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.columns} FROM patients p WHERE p.account_id = ${accountId} AND p.code = ${code}`,
    );
  }

  /** Which of `codes` are patients of the account (one query, whatever their number). */
  async existingCodes(accountId: string, codes: string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await query<{ code: string }>(
      this.db,
      sql`SELECT code FROM patients WHERE account_id = ${accountId} AND code = ANY(${codes}::text[])`,
    );
    return new Set(rows.map((r) => r.code));
  }

  /** One page of the account's patients matching `filter`, newest first (the house paginator). */
  page(
    accountId: string,
    filter: PatientFilter,
    request: KeysetPageRequest,
  ): Promise<KeysetPage<Patient>> {
    return keysetPage(this.db, this.listed(accountId, filter), request);
  }

  /**
   * `page`'s statement before it runs (for EXPLAIN): one index range scan from the cursor's row,
   * so deep pages cost what the first one does.
   */
  pageQuery(accountId: string, filter: PatientFilter, request: KeysetPageRequest): Sql {
    return keysetSql(this.listed(accountId, filter), request);
  }

  private listed(accountId: string, filter: PatientFilter): Sql {
    const where = [sql`p.account_id = ${accountId}`];
    if (filter.locationId) where.push(sql`p.location_id = ${filter.locationId}`);
    if (filter.dob) where.push(sql`p.dob = ${filter.dob}`);
    if (filter.accountNumber) where.push(sql`p.account_number = ${filter.accountNumber}`);
    for (const word of filter.words) {
      const w = `%${escapeLike(word)}%`;
      where.push(
        sql`(p.first_name LIKE ${w} ESCAPE '\\' OR p.last_name LIKE ${w} ESCAPE '\\' OR p.middle_name LIKE ${w} ESCAPE '\\')`,
      );
    }
    return sql`SELECT ${this.columns} FROM patients p WHERE ${sql.join(where, ' AND ')}`;
  }

  /** Links (idempotently) the patient to an eligibility request of the same account. */
  async link(accountId: string, patientId: string, requestId: string): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO patient_eligibility_links (patient_id, request_id, account_id) VALUES (${patientId}, ${requestId}, ${accountId})
       ON CONFLICT (patient_id, request_id) DO NOTHING`,
    );
  }

  /** The ids of the requests linked to the patient, newest link first (at most 500). */
  async linkedRequestIds(accountId: string, patientId: string): Promise<string[]> {
    const rows = await query<{ request_id: string }>(
      this.db,
      sql`SELECT request_id FROM patient_eligibility_links WHERE patient_id = ${patientId} AND account_id = ${accountId}
       ORDER BY created_at DESC, request_id DESC LIMIT 500`,
    );
    return rows.map((r) => r.request_id);
  }
}
