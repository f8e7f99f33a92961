import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { readTaskView, showVerification } from '@/modules/eligibility/assisted-insurers';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';

/**
 * Verification tasks' clocks (worker roles, every MAINTENANCE_INTERVAL_MS): a lease that ran out
 * puts its task back in the queue, and a task past `due_by` fires `verification_task.overdue`
 * once (`overdue_notified_at` records it; SKIP LOCKED lets several workers share the work).
 */
@Injectable()
export class VerificationMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(VerificationMaintenance.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
    @InjectConfig() config: AppConfig,
  ) {
    super(config);
  }

  protected async runOnce(): Promise<void> {
    await this.releaseLapsedLeases();
    await this.notifyOverdue();
  }

  /** In-progress tasks whose lease ended are queued again; answers how many. */
  async releaseLapsedLeases(limit = 500): Promise<number> {
    return this.db.transaction(async (em) => {
      const rows: { request_id: string }[] = await em.query(
        `WITH lapsed AS (
           UPDATE verification_tasks
           SET state = 'queued', lease_holder = NULL, lease_holder_name = NULL, lease_until = NULL,
               updated_at = now(),
               history = history || jsonb_build_array(jsonb_build_object(
                 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'state', 'queued', 'actor', 'service', 'detail', 'lease ended'))
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state = 'in_progress' AND lease_until < now()
             ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING request_id)
         SELECT DISTINCT request_id FROM lapsed`,
        [limit],
      );
      for (const { request_id } of rows) await showVerification(em, String(request_id));
      if (rows.length > 0)
        this.logger.log({ count: rows.length }, 'lapsed verification leases released');
      return rows.length;
    });
  }

  /** Open tasks past `due_by` not notified yet: one `verification_task.overdue` each. */
  async notifyOverdue(limit = 200): Promise<number> {
    const { count, deliveries } = await this.db.transaction(async (em) => {
      const rows: { id: string; account_id: string }[] = await em.query(
        `WITH due AS (
           UPDATE verification_tasks SET overdue_notified_at = now()
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state IN ('queued', 'in_progress', 'needs_info') AND due_by < now()
               AND overdue_notified_at IS NULL
             ORDER BY due_by LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id, account_id)
         SELECT id, account_id FROM due`,
        [limit],
      );
      const ids: string[] = [];
      for (const row of rows) {
        const view = await readTaskView(em, row.account_id, row.id);
        ids.push(
          ...(await this.outbox.recordEventInTx(em, {
            accountId: row.account_id,
            topic: 'verification',
            event: 'verification_task.overdue',
            resourceKey: `${row.id}:overdue`,
            resourceUid: row.id,
            body: JSON.stringify(view),
          })),
        );
      }
      return { count: rows.length, deliveries: ids };
    });
    await this.outbox.dispatch(deliveries);
    if (count > 0) this.logger.warn({ count }, 'verification tasks overdue');
    return count;
  }
}
