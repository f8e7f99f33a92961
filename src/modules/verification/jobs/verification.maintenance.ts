import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { WebhookOutbox } from '@/modules/webhooks';
import { EVENT_VERIFICATION_TASK_OVERDUE } from '../domain/task-events';
import { taskView } from '../domain/task-view';
import { InjectHook } from '@/platform/kernel/hooks';
import { TaskRequests, type TaskRequestsPort } from '../domain/task-requests.port';
import { VerificationTasksRepository } from '../store/verification-tasks.repository';

/**
 * Verification tasks' clocks (worker roles, every MAINTENANCE_INTERVAL_MS): a lease that ran out
 * puts its task back in the queue, and a task past `due_by` fires `verification_task.overdue`
 * once (`overdue_notified_at` records it; SKIP LOCKED lets several workers share the work).
 */
@Injectable()
export class VerificationMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(VerificationMaintenance.name);

  constructor(
    private readonly database: Database,
    private readonly tasks: VerificationTasksRepository,
    private readonly outbox: WebhookOutbox,
    @InjectHook(TaskRequests) private readonly requests: TaskRequestsPort,
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
    return this.database.transaction(async (tx) => {
      const requests = await this.tasks.releaseLapsedLeases(limit, tx);
      for (const requestId of requests) await this.requests.showTask(tx, requestId);
      if (requests.length > 0)
        this.logger.log({ count: requests.length }, 'lapsed verification leases released');
      return requests.length;
    });
  }

  /** Open tasks past `due_by` not notified yet: one `verification_task.overdue` each. */
  async notifyOverdue(limit = 200): Promise<number> {
    // Each event's first attempts are queued after the commit (WebhookOutbox.recordEventInTx).
    const count = await this.database.transaction(async (tx) => {
      const rows = await this.tasks.markOverdue(limit, tx);
      for (const row of rows) {
        const view = await this.tasks.findView(row.account_id, row.id, tx);
        // Locked and marked in this transaction, so it is there; the body is always a task.
        if (!view) continue;
        await this.outbox.recordEventInTx(tx, {
          accountId: row.account_id,
          topic: 'verification',
          event: EVENT_VERIFICATION_TASK_OVERDUE,
          resourceKey: `${row.id}:overdue`,
          resourceUid: row.id,
          body: JSON.stringify(taskView(view)),
        });
      }
      return rows.length;
    });
    if (count > 0) this.logger.warn({ count }, 'verification tasks overdue');
    return count;
  }
}
