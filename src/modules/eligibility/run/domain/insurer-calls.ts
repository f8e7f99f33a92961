import { Injectable, Logger } from '@nestjs/common';
import { TimeoutError, withTimeout } from '@/platform/kernel/timeout';
import { InjectConfig } from '@/platform/config/config.module';
import { Metrics } from '@/platform/metrics/metrics';
import type { AppConfig } from '@/platform/config/env';
import { inSpan } from '@/platform/tracing/tracing';
import {
  ConnectorContext,
  InsurerConnector,
  InsurerCredentials,
  InsurerRegistry,
  InsurerSettingsService,
  InsurerUnavailableError,
  WireExchange,
} from '@/modules/insurers';
import type { EligibilityRequest } from '../../store/eligibility-request.entity';
import type { SearchSetup } from './search-lease';
import { SearchRunsRepository } from '../../store/search-runs.repository';
import { toInsurerPerson, toPlanResult } from './stored-results';
import { ExchangeOutcome, InsurerExchangeLog } from './insurer-exchange-log';
import { type Answer, exchangeOutcome, toOutcome, withoutWire } from './insurer-answers';
import type { InsurerOutcome } from '../../domain/search-outcome';
import { notConnectedDetail, switchedOffDetail } from '../../domain/error-details';

interface Usable {
  connector: InsurerConnector;
  credentials: InsurerCredentials | null;
}

/**
 * One call to one insurer's connector, turned into an InsurerOutcome: never throws. A timeout or
 * InsurerUnavailableError is `unavailable` (retried); any other error is `failed`. Every call is
 * recorded in the insurer exchange log.
 */
@Injectable()
export class InsurerCalls {
  private readonly logger = new Logger(InsurerCalls.name);

  constructor(
    private readonly runs: SearchRunsRepository,
    private readonly insurers: InsurerRegistry,
    private readonly insurerSettings: InsurerSettingsService,
    private readonly exchanges: InsurerExchangeLog,
    @InjectConfig() private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async search(
    request: EligibilityRequest,
    code: string,
    setup: SearchSetup,
  ): Promise<InsurerOutcome> {
    const usable = this.connectorFor(request, code, setup);
    if ('kind' in usable) return usable;
    return this.call(request, code, usable, setup, 'search', (context) =>
      usable.connector.search(request.query, context),
    );
  }

  /**
   * Whether `code` is answered without a call that holds an insurer slot: the sandbox (in this
   * process) or a person (docs/api.md, Insurers and assisted verification: reading the task is a database read).
   */
  answersLocally(request: EligibilityRequest, code: string, setup: SearchSetup): boolean {
    return this.insurers.get(code)?.local === true || this.isAssisted(code, setup);
  }

  /** docs/api.md, Insurers and assisted verification: the account's searches of `code` go to a person. */
  isAssisted(code: string, setup: SearchSetup): boolean {
    const row = setup.settings.find((r) => r.insurer_code === code);
    return (
      this.insurerSettings.pathOf(code, row?.enabled ?? true, row?.eligibility_mode ?? null) ===
      'assisted'
    );
  }

  /** A details request: the one person of an earlier result, asked of the same insurer. */
  async details(request: EligibilityRequest, setup: SearchSetup): Promise<InsurerOutcome> {
    const code = request.insurerCodes[0];
    const assisted = this.isAssisted(code, setup);
    const usable = assisted ? null : this.connectorFor(request, code, setup);
    if (usable && 'kind' in usable) return usable;
    const target = request.target!;
    const found = await this.runs.target(String(target.result_id), String(target.person_id));
    if (!found) return { code, kind: 'failed', error: 'target result or person is gone' };
    const { result, person } = found;
    // A verifier already gave the whole plan they read (docs/api.md, Insurers and assisted verification): the details are those.
    if (!usable) {
      // Stored with the person's row when a verifier answered (search-finisher.ts).
      if (!person.plan)
        return { code, kind: 'failed', error: 'the target person has no stored plan' };
      const stored = toPlanResult(result, []);
      const plan = { ...stored, persons: [{ ...toInsurerPerson(person), plan: person.plan }] };
      return { code, kind: 'found', plans: [plan], keepPlans: true };
    }
    return this.call(request, code, usable, setup, 'details', async (context) => {
      const outcome = await usable.connector.fetchPlanDetails(
        {
          query: request.query,
          plan: toPlanResult(result, [person]),
          person: toInsurerPerson(person),
        },
        context,
      );
      return outcome.kind === 'found' ? { kind: 'found', plans: [outcome.plan] } : outcome;
    });
  }

  /**
   * The connector and the account's credentials for `code`, or the outcome when there is no
   * usable connector: none in the service, or the insurer switched off for the account. Neither
   * changes on a retry, so neither is retried.
   */
  private connectorFor(
    request: EligibilityRequest,
    code: string,
    setup: SearchSetup,
  ): Usable | InsurerOutcome {
    const connector = this.insurers.get(code);
    if (!connector) {
      return {
        code,
        kind: 'unavailable',
        error: 'no connector for this insurer',
        retryable: false,
        detail: notConnectedDetail(code, this.config.clearinghouse.eligibilityUrl !== null),
      };
    }
    const setting = this.insurerSettings.forSearch(
      request.accountId,
      code,
      setup.settings.find((row) => row.insurer_code === code),
    );
    if (!setting.enabled) {
      return {
        code,
        kind: 'unavailable',
        error: 'insurer disabled for the account',
        retryable: false,
        detail: switchedOffDetail(code),
      };
    }
    return { connector, credentials: setting.credentials };
  }

  /**
   * docs/architecture.md, Tracing: one span per call, with the insurer's code, the transport
   * (`sandbox` in this process, `x12` through the clearinghouse), the operation and the
   * outcome's kind (as the exchange log records it); the clearinghouse's HTTP call is its child.
   */
  private call(
    request: EligibilityRequest,
    code: string,
    usable: Usable,
    setup: SearchSetup,
    operation: 'search' | 'details',
    fn: (context: ConnectorContext) => Promise<Answer>,
  ): Promise<InsurerOutcome> {
    const transport = usable.connector.local ? 'sandbox' : 'x12';
    const attributes = {
      'insurer.code': code,
      'insurer.transport': transport,
      'insurer.operation': operation,
    };
    return inSpan('insurer call', attributes, async (span) => {
      const timeoutMs = this.config.insurerTimeoutMs;
      const startedAt = new Date();
      const recorded: { wire: WireExchange | null } = { wire: null };
      const context: ConnectorContext = {
        accountId: request.accountId,
        insurerCode: code,
        requestUid: request.uid,
        elapsedMs: startedAt.getTime() - request.createdAt.getTime(),
        credentials: usable.credentials,
        provider: setup.provider,
        deadline: startedAt.getTime() + timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
        recordExchange: (exchange) => {
          recorded.wire = exchange;
        },
      };
      let answer: Answer;
      try {
        answer = await withTimeout(fn(context), timeoutMs);
      } catch (e) {
        answer =
          e instanceof InsurerUnavailableError || e instanceof TimeoutError
            ? { kind: 'unavailable', reason: (e as Error).message, retryAfterMs: null }
            : { kind: 'unexpected', reason: (e as Error).message };
      }
      const outcome = toOutcome(code, answer);
      const logged = await this.record(request, code, startedAt, answer, recorded.wire);
      // docs/architecture.md, What operators see: `insurer_request_duration_seconds`.
      this.metrics.insurerCall(code, transport, logged, (Date.now() - startedAt.getTime()) / 1000);
      // Reasons may quote what the insurer said about the patient: the log keeps kinds only.
      if (outcome.kind === 'failed' || outcome.kind === 'rejected')
        this.logger.error(
          { requestId: request.id, insurer: code, outcome: answer.kind },
          'insurer call failed',
        );
      else if (outcome.kind === 'unavailable')
        this.logger.warn({ requestId: request.id, insurer: code }, 'insurer unavailable');
      span.set({ 'insurer.outcome': logged });
      return outcome;
    });
  }

  /**
   * One row of the exchange log; a failure to write it must not cost the (billed) answer.
   * Answers the call's outcome as logged.
   */
  private async record(
    request: EligibilityRequest,
    code: string,
    startedAt: Date,
    answer: Answer,
    wire: WireExchange | null,
  ): Promise<ExchangeOutcome> {
    const outcome = exchangeOutcome(answer);
    try {
      await this.exchanges.record(request.accountId, request.id, {
        insurerCode: code,
        attempt: request.attempts,
        startedAt,
        durationMs: Date.now() - startedAt.getTime(),
        outcome,
        ...(wire ?? withoutWire(request, code, answer)),
        error:
          'reason' in answer ? answer.reason : wire?.notes?.length ? wire.notes.join('; ') : null,
      });
    } catch (e) {
      this.logger.error(
        { requestId: request.id, insurer: code, err: (e as Error).name },
        'exchange log write failed',
      );
    }
    return outcome;
  }
}
