import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { query, sql } from '@/platform/db/sql';
import { isoDate } from '@/platform/kernel/time';

/** A staff entry as it is stored (docs/api.md, Patients: benefit history). */
export interface StaffEntry {
  id: string;
  insurerCode: string;
  benefitCode: string;
  date: string;
  note: string | null;
  createdAt: Date;
}

/** A staff entry with the names and date of birth of its patient record. */
export interface PeopleEntry extends StaffEntry {
  firstName: string;
  lastName: string;
  dob: string;
}

/** Names (lower case, as patient records keep them) and a date of birth to look up. */
export interface NamedPerson {
  firstName: string;
  lastName: string;
  dob: string;
}

/** The most staff entries one lookup reads (a bound on memory, whatever the account). */
export const MAX_STAFF_ENTRIES = 1_000;

type Row = {
  id: string;
  insurer_code: string;
  benefit_code: string;
  service_date: string | Date;
  note: string | null;
  created_at: Date;
  first_name?: string;
  last_name?: string;
  dob?: string | Date;
};

const entryOf = (r: Row): StaffEntry => ({
  id: r.id,
  insurerCode: r.insurer_code,
  benefitCode: r.benefit_code,
  date: isoDate(r.service_date)!,
  note: r.note,
  createdAt: r.created_at,
});

const COLUMNS = sql.raw(
  'h.id, h.insurer_code, h.benefit_code, h.service_date, h.note, h.created_at',
);
const MAX = sql.raw(String(MAX_STAFF_ENTRIES));

/** Staff entries of the practice's benefit history (`patient_benefit_history`). */
@Injectable()
export class BenefitHistoryRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records an entry of the account's patient; the same patient, insurer, benefit and day again
   * replaces the note (and answers the entry kept).
   */
  async upsert(
    accountId: string,
    patientId: string,
    entry: { insurerCode: string; benefitCode: string; date: string; note: string | null },
  ): Promise<StaffEntry> {
    const rows = await query<Row>(
      this.db,
      sql`INSERT INTO patient_benefit_history AS h
         (account_id, patient_id, insurer_code, benefit_code, service_date, note)
       VALUES (${accountId}, ${patientId}, ${entry.insurerCode}, ${entry.benefitCode}, ${entry.date}, ${entry.note})
       ON CONFLICT (patient_id, insurer_code, benefit_code, service_date)
         DO UPDATE SET note = EXCLUDED.note
       RETURNING ${COLUMNS}`,
    );
    return entryOf(rows[0]);
  }

  /** The patient's entries, the most recent service first (at most MAX_STAFF_ENTRIES). */
  async ofPatient(accountId: string, patientId: string): Promise<StaffEntry[]> {
    const rows = await query<Row>(
      this.db,
      sql`SELECT ${COLUMNS} FROM patient_benefit_history h
       WHERE h.account_id = ${accountId} AND h.patient_id = ${patientId}
       ORDER BY h.service_date DESC, h.created_at DESC, h.id
       LIMIT ${MAX}`,
    );
    return rows.map(entryOf);
  }

  /**
   * The entries of the account's patient records with these names and dates of birth, for these
   * insurers, the most recent service first (at most MAX_STAFF_ENTRIES), each with its record's
   * names and date of birth.
   */
  async ofPeople(
    accountId: string,
    people: readonly NamedPerson[],
    insurerCodes: readonly string[],
  ): Promise<PeopleEntry[]> {
    if (people.length === 0 || insurerCodes.length === 0) return [];
    const rows = await query<Row>(
      this.db,
      sql`SELECT ${COLUMNS}, p.first_name, p.last_name, p.dob
       FROM patients p
       JOIN patient_benefit_history h ON h.patient_id = p.id AND h.account_id = p.account_id
       WHERE p.account_id = ${accountId}
         AND (p.last_name, p.first_name, p.dob) IN (
           SELECT * FROM unnest(${people.map((p) => p.lastName)}::text[], ${people.map((p) => p.firstName)}::text[], ${people.map((p) => p.dob)}::date[]))
         AND h.insurer_code = ANY(${insurerCodes}::text[])
       ORDER BY h.service_date DESC, h.id
       LIMIT ${MAX}`,
    );
    return rows.map((r) => ({
      ...entryOf(r),
      firstName: r.first_name!,
      lastName: r.last_name!,
      dob: isoDate(r.dob)!,
    }));
  }
}
