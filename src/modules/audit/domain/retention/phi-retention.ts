import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { InjectConfig } from '@/platform/config/config.module';
import { AppConfig, runsWorkers } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { InjectHook } from '@/platform/kernel/hooks';
import { type RetentionPurger, RetentionPurgers } from './retention-purgers.port';

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
 * The job owns the schedule, the batches and their transactions; what a batch erases is each
 * owner's (the RetentionPurgers hook's implementers: eligibility's requests with their webhook
 * deliveries and verification tasks, mail's e-mails), so audit names no other module's table
 * (docs/architecture.md, Data access).
 */
@Injectable()
export class PhiRetention extends MaintenanceLoop {
  protected readonly logger = new Logger(PhiRetention.name);
  private firstRun: NodeJS.Timeout | null = null;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly database: Database,
    @InjectHook(RetentionPurgers) private readonly purgers: readonly RetentionPurger[],
  ) {
    super(config);
  }

  protected override intervalMs(): number {
    return DAY_MS;
  }

  override onApplicationBootstrap(): void {
    // Each purger's count is logged under its name.
    const names = new Set(this.purgers.map((p) => p.name));
    if (names.size < this.purgers.length) throw new Error('Two retention purgers share a name.');
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
    // Each purger in turn: the requests ('purged'), then the e-mails sent about claims, which
    // hold the patient's name, address and the claim form ('mails'; queued mail is sent first).
    const counts: Record<string, number> = {};
    for (const purger of this.purgers) {
      let total = 0;
      for (;;) {
        // One batch in one transaction: its rows locked, their patient data erased.
        const n = await this.database.transaction((tx) => purger.purge(cutoff, BATCH_SIZE, tx));
        total += n;
        if (n < BATCH_SIZE) break;
      }
      counts[purger.name] = total;
    }
    if (Object.values(counts).some((n) => n > 0)) {
      this.logger.log({ ...counts, retentionDays: days }, 'patient data erased');
    }
  }
}
