import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import { escapeLike } from '@/platform/kernel/keyset-cursor';
import {
  type KeysetPage,
  type KeysetPageRequest,
  fetchKeysetPage,
  keysetQuery,
} from '@/platform/http/pagination/keyset-paginator';
import { managerOf, type Tx } from '@/platform/db/database';
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

/** Patients (docs/api.md, Patients) and their links to eligibility requests. */
@Injectable()
export class PatientsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Patient) private readonly patients: Repository<Patient>,
  ) {}

  /**
   * Serialises, until `tx` ends, the creations of patients with `key`'s values, so the similarity
   * check holds under concurrent requests.
   */
  async lockSimilar(key: SimilarKey, tx: Tx): Promise<void> {
    await managerOf(this.db, tx).query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `patient-similar:${key.accountId}:${key.lastName}:${key.firstName}:${key.dob}`,
    ]);
  }

  /** The oldest patient with `key`'s values, if any. */
  findSimilar(key: SimilarKey, tx?: Tx): Promise<Patient | null> {
    return managerOf(this.db, tx).findOne(Patient, {
      where: { ...key },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Stores a new patient; answers it with its generated columns. */
  insert(values: Partial<Patient>, tx?: Tx): Promise<Patient> {
    const em = managerOf(this.db, tx);
    return em.save(em.create(Patient, values));
  }

  findOne(accountId: string, code: string): Promise<Patient | null> {
    return this.patients.findOne({ where: { accountId, code } });
  }

  /** Which of `codes` are patients of the account (one query, whatever their number). */
  async existingCodes(accountId: string, codes: string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows: { code: string }[] = await this.db.query(
      'SELECT code FROM patients WHERE account_id = $1 AND code = ANY($2::text[])',
      [accountId, codes],
    );
    return new Set(rows.map((r) => r.code));
  }

  /** One page of the account's patients matching `filter`, newest first (the house paginator). */
  page(
    accountId: string,
    filter: PatientFilter,
    request: KeysetPageRequest,
  ): Promise<KeysetPage<Patient>> {
    return fetchKeysetPage(this.pageQuery(accountId, filter, request), request);
  }

  /**
   * `page`'s query before it runs (for EXPLAIN): one index range scan from the cursor's row, so
   * deep pages cost what the first one does.
   */
  pageQuery(
    accountId: string,
    filter: PatientFilter,
    request: KeysetPageRequest,
  ): SelectQueryBuilder<Patient> {
    const qb = this.patients
      .createQueryBuilder('p')
      .where('p.account_id = :accountId', { accountId });
    if (filter.locationId)
      qb.andWhere('p.location_id = :locationId', { locationId: filter.locationId });
    if (filter.dob) qb.andWhere('p.dob = :dob', { dob: filter.dob });
    if (filter.accountNumber) {
      qb.andWhere('p.account_number = :accountNumber', { accountNumber: filter.accountNumber });
    }
    filter.words.forEach((word, i) => {
      qb.andWhere(
        `(p.first_name LIKE :w${i} ESCAPE '\\' OR p.last_name LIKE :w${i} ESCAPE '\\' ` +
          `OR p.middle_name LIKE :w${i} ESCAPE '\\')`,
        { [`w${i}`]: `%${escapeLike(word)}%` },
      );
    });
    return keysetQuery(qb, request);
  }

  /** Links (idempotently) the patient to an eligibility request of the same account. */
  async link(accountId: string, patientId: string, requestId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO patient_eligibility_links (patient_id, request_id, account_id) VALUES ($1, $2, $3)
       ON CONFLICT (patient_id, request_id) DO NOTHING`,
      [patientId, requestId, accountId],
    );
  }

  /** The ids of the requests linked to the patient, newest link first (at most 500). */
  async linkedRequestIds(accountId: string, patientId: string): Promise<string[]> {
    const rows: { request_id: string }[] = await this.db.query(
      `SELECT request_id FROM patient_eligibility_links WHERE patient_id = $1 AND account_id = $2
       ORDER BY created_at DESC, request_id DESC LIMIT 500`,
      [patientId, accountId],
    );
    return rows.map((r) => String(r.request_id));
  }
}
