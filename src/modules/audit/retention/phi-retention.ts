import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import { AppConfig, runsWorkers } from '@/config/env';
import { errorDetailOf } from '@/modules/eligibility/error-details';

const DAY_MS = 86_400_000;
/** The first pass after a worker starts, so a restart never waits a whole day. */
const FIRST_RUN_DELAY_MS = 60_000;
const BATCH_SIZE = 200;

/**
 * The answer of a purged request (CONTRACT §14): its uid, status and error code stay, its
 * results are gone, and `purged` says why. Key order as every result body.
 */
export function purgedBody(uid: string, status: string, errorCode: string | null): string {
  return JSON.stringify({
    request_uid: uid,
    status,
    error_code: status === 'error' ? errorCode : null,
    error_detail: errorDetailOf(status, errorCode),
    results: [],
    purged: true,
  });
}

/**
 * PHI_RETENTION_DAYS (CONTRACT §14): once a day, eligibility requests older than the limit lose
 * their patient data: results and persons are deleted, the patient the caller described
 * (`query`) and the settled outcomes are emptied, the stored V1/V2 bodies and the bodies of
 * their webhook deliveries become the purged answer. The row keeps its uid, kind, status, error
 * code and dates, and `purged_at` marks it done.
 *
 * Batched (one transaction per batch of rows, `FOR UPDATE SKIP LOCKED`, so several workers share
 * the work), idempotent (a purged row is never selected again) and resumable (each committed
 * batch stays done; an interrupted pass continues at the next). Requests still `processing` are
 * left to the watchdog first.
 *
 * The SQL lives here rather than in the eligibility module: it is one set-based statement per
 * table, and retention is the only writer of `purged_at`.
 */
@Injectable()
export class PhiRetention extends MaintenanceLoop {
  protected readonly logger = new Logger(PhiRetention.name);
  private firstRun: NodeJS.Timeout | null = null;

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    super(config);
  }

  protected override intervalMs(): number {
    return DAY_MS;
  }

  override onApplicationBootstrap(): void {
    if (this.config.phiRetentionDays === null) return;
    super.onApplicationBootstrap();
    if (!runsWorkers(this.config)) return;
    this.firstRun = setTimeout(() => void this.tick(), FIRST_RUN_DELAY_MS);
    this.firstRun.unref();
  }

  override async onModuleDestroy(): Promise<void> {
    if (this.firstRun) clearTimeout(this.firstRun);
    await super.onModuleDestroy();
  }

  protected async runOnce(): Promise<void> {
    const days = this.config.phiRetentionDays;
    if (days === null) return;
    const cutoff = new Date(Date.now() - days * DAY_MS);
    let total = 0;
    for (;;) {
      const n = await this.db.transaction((m) => this.purgeBatch(m, cutoff));
      total += n;
      if (n < BATCH_SIZE) break;
    }
    let mails = 0;
    for (;;) {
      const n = await this.purgeMail(cutoff);
      mails += n;
      if (n < BATCH_SIZE) break;
    }
    if (total > 0 || mails > 0) {
      this.logger.log({ purged: total, mails, retentionDays: days }, 'patient data erased');
    }
  }

  /**
   * CONTRACT §20: e-mails sent about claims hold the patient's name, address and the claim form;
   * past the limit their recipient, subject, bodies and attachments are emptied (kind, ref, status
   * and dates stay). Queued mail is left to be sent first.
   */
  private async purgeMail(cutoff: Date): Promise<number> {
    const rows: unknown[] = await this.db.query(
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
      [cutoff, BATCH_SIZE],
    );
    // TypeORM answers an UPDATE ... RETURNING with [rows, count].
    const updated = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return updated.length;
  }

  private async purgeBatch(m: EntityManager, cutoff: Date): Promise<number> {
    const rows: { id: string; uid: string; status: string; error_code: string | null }[] =
      await m.query(
        `SELECT id, uid, status, error_code FROM eligibility_requests
          WHERE purged_at IS NULL AND created_at < $1 AND status <> 'processing'
          ORDER BY created_at, id
          LIMIT $2
          FOR UPDATE SKIP LOCKED`,
        [cutoff, BATCH_SIZE],
      );
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    const bodies = rows.map((r) => purgedBody(r.uid, r.status, r.error_code));
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
    // CONTRACT §18: a verification task holds the plans a person read, the evidence and notes;
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
    return rows.length;
  }
}
