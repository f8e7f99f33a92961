import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import type { InsurerPlanResult } from '@/modules/insurers/insurer-connector';
import { insurerName } from '@/modules/insurers/insurer-codes';
import {
  TASK_VIEW_COLUMNS,
  TASK_VIEW_FROM,
  taskView,
  type TaskViewRow,
} from '@/modules/verification/task-view';
import type { FailReason, TaskState } from '@/modules/verification/verification-task.entity';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';
import type { EligibilityRequest } from './eligibility-request.entity';
import { renderProcessing } from './eligibility.renderer';
import type { InsurerOutcome } from './search-outcome';

/** Why a verifier could not answer, as the request's `error_detail` says it (CONTRACT §18). */
const FAILURE_WORDS: Record<Exclude<FailReason, 'member_not_found'>, string> = {
  credentials_invalid: "could not be checked: the practice's portal credentials were refused",
  portal_down: "could not be checked: the insurer's portal was down",
  other: 'could not be checked',
};

/**
 * The search side of assisted verification (CONTRACT §18): an insurer answered by a person is
 * one more way an insurer answers. The first run that meets it stores its task (once per request
 * and insurer) and waits; a later run (woken when the task is answered) reads the answer: the
 * plans given, no member, or the failure with its detail.
 */
@Injectable()
export class AssistedInsurers {
  private readonly logger = new Logger(AssistedInsurers.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async answer(request: EligibilityRequest, code: string): Promise<InsurerOutcome> {
    const rows: {
      state: TaskState;
      plans: InsurerPlanResult[] | null;
      failure_reason: FailReason | null;
      detail: string | null;
    }[] = await this.db.query(
      `SELECT state, plans, failure_reason, detail FROM verification_tasks
       WHERE request_id = $1 AND insurer_code = $2`,
      [request.id, code],
    );
    const task = rows[0];
    if (!task) {
      await this.open(request, code);
      return { code, kind: 'waiting' };
    }
    if (task.state === 'completed') return { code, kind: 'found', plans: task.plans ?? [] };
    if (task.state !== 'failed') return { code, kind: 'waiting' };
    if (task.failure_reason === 'member_not_found') return { code, kind: 'found', plans: [] };
    const words = `${insurerName(code)} ${FAILURE_WORDS[task.failure_reason ?? 'other']}`;
    return {
      code,
      kind: 'rejected',
      error: `verification failed: ${task.failure_reason}`,
      detail: task.detail ? `${words}: ${task.detail}` : `${words}.`,
    };
  }

  /** Stores the task (a repeated run stores nothing), shows it on the request, fires `created`. */
  private async open(request: EligibilityRequest, code: string): Promise<void> {
    const deliveries = await this.db.transaction(async (em) => {
      const created: { id: string }[] = await em.query(
        `WITH created AS (
           INSERT INTO verification_tasks (account_id, request_id, insurer_code, due_by, history)
           VALUES ($1, $2, $3, now() + ($4 || ' minutes')::interval,
             jsonb_build_array(jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC',
               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', 'queued', 'actor', 'service',
               'detail', 'created by the search')))
           ON CONFLICT (request_id, insurer_code) DO NOTHING RETURNING id)
         SELECT id FROM created`,
        [request.accountId, request.id, code, String(this.config.verificationSlaMinutes)],
      );
      if (created.length === 0) return [];
      await showVerification(em, request.id);
      const view = await readTaskView(em, request.accountId, created[0].id);
      return this.outbox.recordEventInTx(em, {
        accountId: request.accountId,
        topic: 'verification',
        event: 'verification_task.created',
        resourceKey: `${created[0].id}:created`,
        resourceUid: created[0].id,
        body: JSON.stringify(view),
      });
    });
    this.logger.log({ requestId: request.id, insurer: code }, 'verification task opened');
    await this.outbox.dispatch(deliveries);
  }
}

/** One task of the account as the API shows it; null when it is not the account's. */
export async function readTaskView(
  em: EntityManager | DataSource,
  accountId: string,
  taskId: string,
): Promise<ReturnType<typeof taskView> | null> {
  const rows: TaskViewRow[] = await em.query(
    `SELECT ${TASK_VIEW_COLUMNS} FROM ${TASK_VIEW_FROM} WHERE t.account_id = $1 AND t.id = $2`,
    [accountId, taskId],
  );
  return rows[0] ? taskView(rows[0]) : null;
}

/**
 * The request's stored processing answers carry its first open task by due time (CONTRACT §18
 * `verification`), or none when no task is open; nothing happens to a finished request.
 */
export async function showVerification(em: EntityManager, requestId: string): Promise<void> {
  const rows: { uid: string; task_id: string | null; state: string | null; due_by: Date | null }[] =
    await em.query(
      `SELECT r.uid, t.id AS task_id, t.state, t.due_by FROM eligibility_requests r
       LEFT JOIN LATERAL (SELECT id, state, due_by FROM verification_tasks
         WHERE request_id = r.id AND state IN ('queued', 'in_progress', 'needs_info')
         ORDER BY due_by, id LIMIT 1) t ON true
       WHERE r.id = $1 AND r.status = 'processing'`,
      [requestId],
    );
  const row = rows[0];
  if (!row) return;
  const body = row.task_id
    ? renderProcessing(row.uid, {
        task_id: row.task_id,
        state: row.state!,
        due_by: new Date(row.due_by!).toISOString(),
      })
    : null;
  await em.query(
    `UPDATE eligibility_requests SET body_v1 = $2, body_v2 = $2 WHERE id = $1 AND status = 'processing'`,
    [requestId, body],
  );
}
