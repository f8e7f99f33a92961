import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import { AppConfig, runsWorkers } from '@/config/env';
import { Database } from '@/database/database';
import { PhiPurgesRepository } from './phi-purges.repository';
import { PurgedAnswers } from './purged-answers.port';

const DAY_MS = 86_400_000;
/** The first pass after a worker starts, so a restart never waits a whole day. */
const FIRST_RUN_DELAY_MS = 60_000;
const BATCH_SIZE = 200;

/**
 * PHI_RETENTION_DAYS (SECURITY.md): once a day, eligibility requests older than the limit lose
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
 * The SQL lives in the audit module (PhiPurgesRepository) rather than in the eligibility module:
 * it is one set-based statement per table, and retention is the only writer of `purged_at`.
 */
@Injectable()
export class PhiRetention extends MaintenanceLoop {
  protected readonly logger = new Logger(PhiRetention.name);
  private firstRun: NodeJS.Timeout | null = null;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly database: Database,
    private readonly purges: PhiPurgesRepository,
    private readonly answers: PurgedAnswers,
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
      const n = await this.purgeBatch(cutoff);
      total += n;
      if (n < BATCH_SIZE) break;
    }
    let mails = 0;
    for (;;) {
      // SECURITY.md: e-mails sent about claims hold the patient's name, address and the claim
      // form; queued mail is left to be sent first.
      const n = await this.purges.purgeMail(cutoff, BATCH_SIZE);
      mails += n;
      if (n < BATCH_SIZE) break;
    }
    if (total > 0 || mails > 0) {
      this.logger.log({ purged: total, mails, retentionDays: days }, 'patient data erased');
    }
  }

  /** One batch in one transaction: the requests locked, their patient data erased. */
  private purgeBatch(cutoff: Date): Promise<number> {
    return this.database.transaction(async (tx) => {
      const rows = await this.purges.lockRequests(cutoff, BATCH_SIZE, tx);
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      const bodies = rows.map((r) => this.answers.purgedBody(r.uid, r.status, r.error_code));
      await this.purges.purgeRequests(ids, bodies, tx);
      return rows.length;
    });
  }
}
