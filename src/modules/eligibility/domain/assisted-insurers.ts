import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { insurerName } from '@/modules/insurers';
import { type FailReason, SearchTasks } from '@/modules/verification';
import { WebhookOutbox } from '@/modules/webhooks';
import { AssistedSearchesRepository } from '../store/assisted-searches.repository';
import type { EligibilityRequest } from '../store/eligibility-request.entity';
import type { InsurerOutcome } from './search-outcome';

/** Why a verifier could not answer, as the request's `error_detail` says it (docs/api.md, Insurers and assisted verification). */
const FAILURE_WORDS: Record<Exclude<FailReason, 'member_not_found'>, string> = {
  credentials_invalid: "could not be checked: the practice's portal credentials were refused",
  portal_down: "could not be checked: the insurer's portal was down",
  other: 'could not be checked',
};

/**
 * The search side of assisted verification (docs/api.md, Insurers and assisted verification): an insurer answered by a person is
 * one more way an insurer answers. The first run that meets it stores its task (once per request
 * and insurer) and waits; a later run (woken when the task is answered) reads the answer: the
 * plans given, no member, or the failure with its detail.
 */
@Injectable()
export class AssistedInsurers {
  private readonly logger = new Logger(AssistedInsurers.name);

  constructor(
    private readonly database: Database,
    private readonly tasks: SearchTasks,
    private readonly requests: AssistedSearchesRepository,
    private readonly outbox: WebhookOutbox,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async answer(request: EligibilityRequest, code: string): Promise<InsurerOutcome> {
    const task = await this.tasks.answer(request.id, code);
    if (!task) {
      await this.open(request, code);
      return { code, kind: 'waiting' };
    }
    if (task.state === 'completed')
      return { code, kind: 'found', plans: task.plans ?? [], keepPlans: true };
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
    await this.database.transaction(async (tx) => {
      const created = await this.tasks.open(
        {
          accountId: request.accountId,
          requestId: request.id,
          code,
          slaMinutes: this.config.verificationSlaMinutes,
        },
        tx,
      );
      if (created === null) return;
      await this.requests.showVerification(request.id, tx);
      const view = await this.tasks.view(request.accountId, created, tx);
      // Its first attempts are queued after the commit (WebhookOutbox.recordEventInTx).
      await this.outbox.recordEventInTx(tx, {
        accountId: request.accountId,
        topic: 'verification',
        event: 'verification_task.created',
        resourceKey: `${created}:created`,
        resourceUid: created,
        body: JSON.stringify(view),
      });
    });
    this.logger.log({ requestId: request.id, insurer: code }, 'verification task opened');
  }
}
