import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/database/database';

/** A request whose patient data is due to go, as `lockRequests` answers it. */
export interface RequestToPurge {
  id: string;
  uid: string;
  status: string;
  error_code: string | null;
}

/**
 * The statements of PHI_RETENTION_DAYS (SECURITY.md): one set-based statement per table. They
 * reach other modules' tables (eligibility_requests, eligibility_results, insurer_exchanges,
 * webhook_deliveries, verification_tasks, mail_messages) on purpose: retention is the only
 * writer of `purged_at`, and a purge is these statements in one transaction per batch.
 */
@Injectable()
export class PhiPurgesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Up to `limit` requests created before `cutoff`, not purged and not `processing`, oldest
   * first, locked (`FOR UPDATE SKIP LOCKED`: several workers share the work).
   */
  lockRequests(cutoff: Date, limit: number, tx?: Tx): Promise<RequestToPurge[]> {
    return managerOf(this.db, tx).query(
      `SELECT id, uid, status, error_code FROM eligibility_requests
          WHERE purged_at IS NULL AND created_at < $1 AND status <> 'processing'
          ORDER BY created_at, id
          LIMIT $2
          FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
  }

  /**
   * Erases the patient data of the requests `ids` (locked by `lockRequests`): results, persons
   * and insurer exchanges deleted, the query and outcomes emptied, the stored bodies and their
   * webhook deliveries' bodies replaced by `bodies` (one per id), `purged_at` set; their
   * verification tasks lose plans, evidence and notes, and those tasks' deliveries their body.
   */
  async purgeRequests(ids: string[], bodies: string[], tx?: Tx): Promise<void> {
    const m = managerOf(this.db, tx);
    // Persons go with their results (ON DELETE CASCADE).
    await m.query(`DELETE FROM eligibility_results WHERE request_id = ANY($1::bigint[])`, [ids]);
    // The insurer exchanges hold the 270/271 (names, dates of birth, member ids, plans).
    await m.query(`DELETE FROM insurer_exchanges WHERE request_id = ANY($1::bigint[])`, [ids]);
    await m.query(
      `UPDATE eligibility_requests r
          SET query = '{}'::jsonb, insurer_outcomes = NULL, body_v1 = p.body, body_v2 = p.body,
              purged_at = now()
         FROM unnest($1::bigint[], $2::text[]) AS p(id, body)
        WHERE r.id = p.id`,
      [ids, bodies],
    );
    await m.query(
      `UPDATE webhook_deliveries d SET body = p.body
         FROM unnest($1::bigint[], $2::text[]) AS p(id, body)
        WHERE d.request_id = p.id`,
      [ids, bodies],
    );
    // docs/api.md, Insurers and assisted verification: a verification task holds the plans a person read, the evidence and notes;
    // its webhook deliveries carry the patient as asked. The task's states stay (an audit of
    // who answered when), without their words.
    await m.query(
      `WITH purged AS (
         UPDATE verification_tasks
            SET plans = NULL, evidence = NULL, detail = NULL,
                history = (SELECT COALESCE(jsonb_agg(h - 'detail'), '[]'::jsonb) FROM jsonb_array_elements(history) h)
          WHERE request_id = ANY($1::bigint[])
          RETURNING id::text AS id)
       UPDATE webhook_deliveries d SET body = '{}'
         FROM purged WHERE d.request_uid = purged.id AND d.event LIKE 'verification_task.%'`,
      [ids],
    );
  }

  /**
   * SECURITY.md: up to `limit` sent (or failed) e-mails created before `cutoff` lose their
   * recipient, subject, bodies and attachments (kind, ref, status and dates stay); answers how
   * many. Queued mail is left to be sent first.
   */
  async purgeMail(cutoff: Date, limit: number, tx?: Tx): Promise<number> {
    const rows: unknown[] = await managerOf(this.db, tx).query(
      `UPDATE mail_messages SET to_address = '', subject = '', text_body = '', html_body = '',
              attachments = NULL
        WHERE id IN (
          SELECT id FROM mail_messages
           WHERE created_at < $1 AND status <> 'queued'
             AND (to_address <> '' OR text_body <> '' OR html_body <> '' OR attachments IS NOT NULL)
           ORDER BY created_at, id
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [cutoff, limit],
    );
    // TypeORM answers an UPDATE ... RETURNING with [rows, count].
    const updated = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return updated.length;
  }
}
