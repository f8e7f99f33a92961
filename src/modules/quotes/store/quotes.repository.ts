import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, queryOne, sql } from '@/platform/db/sql';
import { Quote } from './quote.entity';

/** What a quote stores (docs/api.md, The counter). */
export type NewQuote = Pick<
  Quote,
  | 'accountId'
  | 'requestUid'
  | 'personId'
  | 'locationId'
  | 'patientName'
  | 'planName'
  | 'insurerCode'
  | 'dateOfService'
  | 'patientAge'
  | 'body'
>;

/** `quotes` (docs/api.md, The counter): each quote an account made, as it was answered. */
@Injectable()
export class QuotesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the quote; answers its id and time. */
  async insert(q: NewQuote): Promise<{ id: string; createdAt: Date }> {
    const row = await queryOne<{ id: string; created_at: Date }>(
      this.db,
      sql`INSERT INTO quotes (account_id, request_uid, person_id, location_id, patient_name,
         plan_name, insurer_code, date_of_service, patient_age, body)
       VALUES (${q.accountId}, ${q.requestUid}, ${q.personId}, ${q.locationId}, ${q.patientName},
         ${q.planName}, ${q.insurerCode}, ${q.dateOfService}, ${q.patientAge},
         ${JSON.stringify(q.body)}::jsonb)
       RETURNING id, created_at`,
    );
    return { id: row!.id, createdAt: row!.created_at };
  }

  /** One quote of the account (another account's is not found). */
  find(accountId: string, id: string): Promise<Quote | null> {
    return queryOne(
      this.db,
      sql`SELECT ${entityColumns(this.db, Quote, 'q')} FROM quotes q
       WHERE q.id = ${id} AND q.account_id = ${accountId}`,
    );
  }

  /**
   * PHI_RETENTION_DAYS (SECURITY.md): up to `limit` quotes created before `cutoff` are deleted
   * (a quote is the patient's order and plan, nothing else); answers how many.
   */
  purge(cutoff: Date, limit: number, tx?: Tx): Promise<number> {
    return execute(
      this.db,
      sql`DELETE FROM quotes WHERE id IN (
          SELECT id FROM quotes WHERE created_at < ${cutoff}
           ORDER BY created_at, id
           LIMIT ${limit}
           FOR UPDATE SKIP LOCKED)`,
      tx,
    );
  }
}
