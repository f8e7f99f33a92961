import { randomBytes } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { generateUid, isUniqueViolation } from '@/common/codes';
import { ErrorCollector, NotFoundError, ValidationFailed } from '@/common/errors';
import { MSG } from '@/common/messages';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { isKnownInsurer } from '@/modules/insurers/insurer-codes';
import {
  ConnectorContext,
  InsurerConnector,
  InsurerCredentials,
  InsurerPerson,
  InsurerPlanResult,
  InsurerUnavailableError,
  MemberQuery,
} from '@/modules/insurers/insurer-connector';
import { InsurerRegistry } from '@/modules/insurers/insurer-registry.service';
import { InsurerSettingsService } from '@/modules/insurers/insurer-settings.service';
import { CreateDetailsDto, CreateEligibilityDto } from './dto/create-eligibility.dto';
import { EligibilityErrorCode, EligibilityRequest } from './eligibility-request.entity';
import { EligibilityPerson, EligibilityResult } from './eligibility-result.entity';
import {
  ELIGIBILITY_FINISHED,
  ELIGIBILITY_FINISHED_COMMITTED,
  EligibilityFinishedCommittedEvent,
  EligibilityFinishedEvent,
} from './eligibility.events';
import {
  MAX_SEARCH_ATTEMPTS,
  retryDelayMs,
  SEARCH_JOB,
  SEARCH_QUEUE,
  SearchJobData,
} from './eligibility.queue';
import { renderProcessing, renderResult, ResultVersion } from './eligibility.renderer';

const DUPLICATE_UID = 'Eligibility request with this request uid already exists.';
const INSURER_TIMEOUT_MS = 30_000;
const PLAN_TOKEN_DAYS = 30;

type InsurerOutcome =
  | { code: string; kind: 'found'; plans: InsurerPlanResult[] }
  | { code: string; kind: 'deferred'; retryAfterMs: number }
  | { code: string; kind: 'unavailable'; error: string; retryable: boolean }
  | { code: string; kind: 'failed'; error: string };

/** A request as the dashboard and patient links see it. */
export interface EligibilitySummary {
  id: string;
  uid: string;
  kind: string;
  status: string;
  errorCode: string | null;
  insurerCodes: string[];
  patientName: string;
  createdAt: Date;
  completedAt: Date | null;
}

@Injectable()
export class EligibilityService {
  private readonly logger = new Logger(EligibilityService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(SEARCH_QUEUE) private readonly queue: Queue<SearchJobData>,
    private readonly accounts: AccountsService,
    private readonly insurers: InsurerRegistry,
    private readonly insurerSettings: InsurerSettingsService,
    private readonly events: EventEmitter2,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  // Accepting requests ----------------------------------------------------------------------

  /** Stores the request as `processing`, enqueues its search, and returns its uid. */
  async create(accountId: string, dto: CreateEligibilityDto): Promise<string> {
    const errors = new ErrorCollector();
    const codes = dto.insurer_code_list ?? (dto.insurer_code ? [dto.insurer_code] : []);
    if (codes.length === 0) errors.add('insurer_code', MSG.required);
    const unknown = codes.filter((c) => !isKnownInsurer(c));
    const location = await this.accounts
      .resolveLocation(accountId, dto.location_code)
      .catch((e: unknown) => {
        if (e instanceof ValidationFailed)
          errors.add('location_code', (e.errors.location_code as { $: string[] }).$[0]);
        else throw e;
        return null;
      });
    if (unknown.length > 0) {
      // CONTRACT §3: an unknown insurer is a whole-request error.
      throw new ValidationFailed({
        ...errors.tree,
        $: unknown.map((c) => `Unknown insurer code: ${c}.`),
      });
    }
    errors.throwIfAny();

    const query: MemberQuery = {
      firstName: dto.patient.first_name,
      lastName: dto.patient.last_name,
      dob: dto.patient.dob,
      zipcode: dto.patient.zipcode,
      ssnLastFour: dto.patient.ssn_last_four || null,
      memberId: dto.patient.member_id || null,
    };
    return this.insertAndEnqueue({
      accountId,
      uid: dto.request_uid || generateUid(),
      uidField: 'request_uid',
      kind: 'search',
      parentId: null,
      locationId: location!.id,
      insurerCodes: codes,
      query,
      target: null,
    });
  }

  /** A details request for one person of a complete result (CONTRACT §4). */
  async createDetails(accountId: string, pathUid: string, dto: CreateDetailsDto): Promise<string> {
    const parent = await this.findRequest(accountId, pathUid);
    if (!parent) throw new NotFoundError(`Eligibility request ${pathUid} not found.`);
    const errors = new ErrorCollector();
    if (dto.request_uid !== pathUid)
      errors.add('request_uid', 'Must equal the request uid in the path.');
    if (parent.status !== 'complete') {
      throw new ValidationFailed({
        ...errors.tree,
        $: [`Eligibility request ${pathUid} is not complete.`],
      });
    }
    const [result] = await this.db.query(
      'SELECT id, insurer_code FROM eligibility_results WHERE id = $1 AND request_id = $2',
      [dto.result_id, parent.id],
    );
    if (!result)
      errors.add(
        'result_id',
        `Result ${dto.result_id} does not belong to eligibility request ${pathUid}.`,
      );
    else {
      const [person] = await this.db.query(
        'SELECT id FROM eligibility_persons WHERE id = $1 AND result_id = $2',
        [dto.person_id, result.id],
      );
      if (!person)
        errors.add(
          'person_id',
          `Person ${dto.person_id} does not belong to result ${dto.result_id}.`,
        );
    }
    errors.throwIfAny();
    return this.insertAndEnqueue({
      accountId,
      uid: dto.details_request_uid || generateUid(),
      uidField: 'details_request_uid',
      kind: 'details',
      parentId: parent.id,
      locationId: parent.locationId,
      insurerCodes: [result.insurer_code],
      query: parent.query,
      target: { result_id: dto.result_id, person_id: dto.person_id },
    });
  }

  private async insertAndEnqueue(row: {
    accountId: string;
    uid: string;
    uidField: string;
    kind: 'search' | 'details';
    parentId: string | null;
    locationId: string;
    insurerCodes: string[];
    query: MemberQuery;
    target: EligibilityRequest['target'];
  }): Promise<string> {
    let id: string;
    try {
      // The unique index on (account_id, uid) decides between concurrent duplicates.
      const [inserted] = await this.db.query(
        `INSERT INTO eligibility_requests
           (account_id, uid, kind, parent_id, location_id, insurer_codes, query, target, status, job_due_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'processing', now())
         RETURNING id`,
        [
          row.accountId,
          row.uid,
          row.kind,
          row.parentId,
          row.locationId,
          row.insurerCodes,
          JSON.stringify(row.query),
          row.target ? JSON.stringify(row.target) : null,
        ],
      );
      id = String(inserted.id);
    } catch (e) {
      if (isUniqueViolation(e, 'eligibility_requests_account_uid_key')) {
        throw ValidationFailed.field(row.uidField, DUPLICATE_UID);
      }
      throw e;
    }
    await this.enqueue(id, 0);
    this.logger.log(
      { requestId: id, accountId: row.accountId, kind: row.kind },
      'eligibility request accepted',
    );
    return row.uid;
  }

  /**
   * Adds a search job. The row is already stored as `processing`, so a failure here (Redis down)
   * is logged, not thrown: the maintenance loop re-enqueues overdue requests.
   */
  async enqueue(requestId: string, delayMs: number, tag = 'a0'): Promise<void> {
    try {
      await withTimeout(
        this.queue.add(
          SEARCH_JOB,
          { requestId },
          {
            jobId: `search:${requestId}:${tag}`,
            delay: delayMs,
            attempts: 1,
            removeOnComplete: true,
            removeOnFail: 1000,
          },
        ),
        3_000,
      );
    } catch (e) {
      this.logger.warn(
        { requestId, err: (e as Error).message },
        'search job not enqueued; will be retried',
      );
    }
  }

  // Reading results -------------------------------------------------------------------------

  async findRequest(accountId: string, uid: string): Promise<EligibilityRequest | null> {
    return this.db.getRepository(EligibilityRequest).findOne({ where: { accountId, uid } });
  }

  /** The result body of `version` exactly as stored (or the processing body); 404 when unknown. */
  async getBody(accountId: string, uid: string, version: ResultVersion): Promise<string> {
    const column = version === 'v1' ? 'body_v1' : 'body_v2';
    const rows: { status: string; body: string | null }[] = await this.db.query(
      `SELECT status, ${column} AS body FROM eligibility_requests WHERE account_id = $1 AND uid = $2`,
      [accountId, uid],
    );
    if (rows.length === 0) throw new NotFoundError(`Eligibility request ${uid} not found.`);
    return rows[0].body ?? renderProcessing(uid);
  }

  /** V2 `results` (null while processing or on error) of several requests, by request id. */
  async resultsByIds(
    accountId: string,
    ids: string[],
  ): Promise<Map<string, { uid: string; status: string; results: unknown }>> {
    const map = new Map<string, { uid: string; status: string; results: unknown }>();
    if (ids.length === 0) return map;
    const rows: { id: string; uid: string; status: string; body: string | null }[] =
      await this.db.query(
        'SELECT id, uid, status, body_v2 AS body FROM eligibility_requests WHERE account_id = $1 AND id = ANY($2::bigint[])',
        [accountId, ids],
      );
    for (const r of rows) {
      map.set(String(r.id), {
        uid: r.uid,
        status: r.status,
        results: r.body ? (JSON.parse(r.body) as { results: unknown }).results : null,
      });
    }
    return map;
  }

  async listRecent(accountId: string, limit = 50): Promise<EligibilitySummary[]> {
    const rows = await this.db.getRepository(EligibilityRequest).find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    return rows.map(summary);
  }

  // Running searches ------------------------------------------------------------------------

  /** One run of a search job. Idempotent: a request no longer `processing` is left alone. */
  async run(requestId: string): Promise<void> {
    const request = await this.db
      .getRepository(EligibilityRequest)
      .findOne({ where: { id: requestId } });
    if (!request || request.status !== 'processing') return;
    const attempt = request.attempts + 1;
    await this.db.query('UPDATE eligibility_requests SET attempts = $2 WHERE id = $1', [
      requestId,
      attempt,
    ]);
    const elapsedMs = Date.now() - request.createdAt.getTime();

    const outcomes =
      request.kind === 'details'
        ? [await this.fetchDetails(request, elapsedMs)]
        : await Promise.all(
            request.insurerCodes.map((code) => this.searchInsurer(request, code, elapsedMs)),
          );

    const deferred = outcomes.filter((o) => o.kind === 'deferred');
    if (deferred.length > 0) {
      const delay = Math.max(...deferred.map((o) => o.retryAfterMs));
      return this.reschedule(requestId, delay, `d${Date.now() + delay}`, attempt - 1);
    }
    // A connector-less insurer will not appear on retry; an outage might end.
    const transient = outcomes.filter((o) => o.kind === 'unavailable' && o.retryable);
    if (transient.length > 0 && attempt < MAX_SEARCH_ATTEMPTS) {
      return this.reschedule(
        requestId,
        retryDelayMs(attempt, this.config.searchRetryBaseMs),
        `r${attempt}`,
        attempt,
      );
    }
    const found = outcomes.filter((o) => o.kind === 'found');
    if (found.length > 0) {
      await this.complete(
        requestId,
        found.flatMap((o) => o.plans.map((plan) => ({ code: o.code, plan }))),
      );
    } else {
      const errorCode: EligibilityErrorCode = outcomes.every((o) => o.kind === 'unavailable')
        ? 'insurer_problem'
        : 'unexpected_error';
      await this.fail(requestId, errorCode);
    }
  }

  private async reschedule(
    requestId: string,
    delayMs: number,
    tag: string,
    attempts: number,
  ): Promise<void> {
    await this.db.query(
      `UPDATE eligibility_requests SET job_due_at = now() + ($2 || ' milliseconds')::interval, attempts = $3
       WHERE id = $1 AND status = 'processing'`,
      [requestId, String(Math.round(delayMs)), attempts],
    );
    await this.enqueue(requestId, delayMs, tag);
  }

  private context(
    request: EligibilityRequest,
    elapsedMs: number,
    credentials: InsurerCredentials | null,
  ): ConnectorContext {
    return {
      accountId: request.accountId,
      requestUid: request.uid,
      elapsedMs,
      credentials,
      signal: AbortSignal.timeout(INSURER_TIMEOUT_MS),
    };
  }

  /**
   * The connector and the account's credentials for `code`, or the outcome when there is no
   * usable connector: none in the service, or the insurer switched off for the account. Neither
   * changes on a retry, so neither is retried.
   */
  private async connectorFor(
    request: EligibilityRequest,
    code: string,
  ): Promise<
    { connector: InsurerConnector; credentials: InsurerCredentials | null } | InsurerOutcome
  > {
    const connector = this.insurers.get(code);
    if (!connector) {
      return {
        code,
        kind: 'unavailable',
        error: 'no connector for this insurer',
        retryable: false,
      };
    }
    const setting = await this.insurerSettings.forSearch(request.accountId, code);
    if (!setting.enabled) {
      return {
        code,
        kind: 'unavailable',
        error: 'insurer disabled for the account',
        retryable: false,
      };
    }
    return { connector, credentials: setting.credentials };
  }

  private async searchInsurer(
    request: EligibilityRequest,
    code: string,
    elapsedMs: number,
  ): Promise<InsurerOutcome> {
    const found = await this.connectorFor(request, code);
    if ('kind' in found) return found;
    return this.call(request, code, async () => {
      const outcome = await found.connector.search(
        request.query,
        this.context(request, elapsedMs, found.credentials),
      );
      return outcome.kind === 'found'
        ? { code, kind: 'found', plans: outcome.plans }
        : { code, kind: 'deferred', retryAfterMs: outcome.retryAfterMs };
    });
  }

  private async fetchDetails(
    request: EligibilityRequest,
    elapsedMs: number,
  ): Promise<InsurerOutcome> {
    const code = request.insurerCodes[0];
    const found = await this.connectorFor(request, code);
    if ('kind' in found) return found;
    const target = request.target!;
    const result = await this.db
      .getRepository(EligibilityResult)
      .findOne({ where: { id: String(target.result_id) } });
    const person = await this.db
      .getRepository(EligibilityPerson)
      .findOne({ where: { id: String(target.person_id), resultId: String(target.result_id) } });
    if (!result || !person)
      return { code, kind: 'failed', error: 'target result or person is gone' };
    return this.call(request, code, async () => {
      const outcome = await found.connector.fetchPlanDetails(
        {
          query: request.query,
          plan: toPlanResult(result, [person]),
          person: toInsurerPerson(person),
        },
        this.context(request, elapsedMs, found.credentials),
      );
      return outcome.kind === 'found'
        ? { code, kind: 'found', plans: [outcome.plan] }
        : { code, kind: 'deferred', retryAfterMs: outcome.retryAfterMs };
    });
  }

  private async call(
    request: EligibilityRequest,
    code: string,
    fn: () => Promise<InsurerOutcome>,
  ): Promise<InsurerOutcome> {
    try {
      return await withTimeout(fn(), INSURER_TIMEOUT_MS);
    } catch (e) {
      const error = (e as Error).message;
      if (e instanceof InsurerUnavailableError || e instanceof TimeoutError) {
        this.logger.warn(
          { requestId: request.id, insurer: code, err: error },
          'insurer unavailable',
        );
        return { code, kind: 'unavailable', error, retryable: true };
      }
      this.logger.error(
        { requestId: request.id, insurer: code, err: error },
        'insurer connector failed',
      );
      return { code, kind: 'failed', error };
    }
  }

  // Finishing -------------------------------------------------------------------------------

  /** Stores the results, renders both bodies and emits the finished event, in one transaction. */
  async complete(
    requestId: string,
    found: { code: string; plan: InsurerPlanResult }[],
  ): Promise<boolean> {
    return this.finish(requestId, async (em, request) => {
      const results: { result: EligibilityResult; persons: EligibilityPerson[] }[] = [];
      for (const [position, { code, plan }] of found.entries()) {
        const [result] = await insertReturningIds(em, EligibilityResult, [
          em.create(EligibilityResult, {
            requestId,
            accountId: request.accountId,
            position,
            insurerCode: code,
            status: plan.status,
            planName: plan.planName,
            planGroup: plan.planGroup,
            planGroupId: plan.planGroupId,
            planBeginDate: plan.planBeginDate,
            planEndDate: plan.planEndDate,
            planRefreshDate: plan.planRefreshDate,
            planIsActive: plan.planIsActive,
          }),
        ]);
        const persons = await insertReturningIds(
          em,
          EligibilityPerson,
          plan.persons.map((p, i) =>
            em.create(EligibilityPerson, {
              // The connector's person has the entity's own field names.
              ...p,
              resultId: result.id,
              accountId: request.accountId,
              position: i,
              insurerState: p.plan.insurer_state,
              planToken: p.plan.insurer_state === 'inn' ? randomBytes(32).toString('hex') : null,
              planTokenExpiredAt:
                p.plan.insurer_state === 'inn' ? daysFromNow(PLAN_TOKEN_DAYS) : null,
            }),
          ),
        );
        results.push({ result, persons });
      }
      return { status: 'complete', errorCode: null, results };
    });
  }

  async fail(requestId: string, errorCode: EligibilityErrorCode): Promise<boolean> {
    return this.finish(requestId, async () => ({ status: 'error', errorCode, results: null }));
  }

  private async finish(
    requestId: string,
    build: (
      em: EntityManager,
      request: EligibilityRequest,
    ) => Promise<{
      status: 'complete' | 'error';
      errorCode: EligibilityErrorCode | null;
      results: { result: EligibilityResult; persons: EligibilityPerson[] }[] | null;
    }>,
  ): Promise<boolean> {
    const finished = await this.db.transaction(async (em) => {
      // The row lock makes finishing happen once, whichever worker or watchdog gets here first.
      const request = await em
        .getRepository(EligibilityRequest)
        .createQueryBuilder('r')
        .setLock('pessimistic_write')
        .where('r.id = :id', { id: requestId })
        .getOne();
      if (!request || request.status !== 'processing') return null;
      const outcome = await build(em, request);
      const input = { uid: request.uid, ...outcome };
      const bodyV1 = renderResult(input, 'v1');
      const bodyV2 = renderResult(input, 'v2');
      await em.update(
        EligibilityRequest,
        { id: requestId },
        {
          status: outcome.status,
          errorCode: outcome.errorCode,
          bodyV1,
          bodyV2,
          completedAt: new Date(),
        },
      );
      await this.events.emitAsync(
        ELIGIBILITY_FINISHED,
        new EligibilityFinishedEvent(
          requestId,
          request.accountId,
          request.uid,
          outcome.status,
          bodyV1,
          bodyV2,
          em,
        ),
      );
      return { ...outcome, accountId: request.accountId, uid: request.uid };
    });
    if (finished) {
      this.events.emit(
        ELIGIBILITY_FINISHED_COMMITTED,
        new EligibilityFinishedCommittedEvent(
          requestId,
          finished.accountId,
          finished.uid,
          finished.status,
        ),
      );
      this.logger.log(
        {
          requestId,
          status: finished.status,
          errorCode: finished.errorCode,
          results: finished.results?.length ?? 0,
        },
        'eligibility request finished',
      );
    }
    return finished !== null;
  }

  // Maintenance -----------------------------------------------------------------------------

  /**
   * Re-enqueues requests whose job is overdue (lost with a Redis restart, or never added). Several
   * workers may run this at once: SKIP LOCKED hands each overdue row to one of them.
   */
  async requeueOverdue(graceSeconds = 30, limit = 500): Promise<number> {
    // (A CTE, because TypeORM answers a bare UPDATE ... RETURNING as [rows, count].)
    const rows: { id: string }[] = await this.db.query(
      `WITH due AS (
         UPDATE eligibility_requests SET job_due_at = now()
         WHERE id IN (
           SELECT id FROM eligibility_requests
           WHERE status = 'processing' AND job_due_at < now() - ($1 || ' seconds')::interval
           ORDER BY job_due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id)
       SELECT id FROM due`,
      [String(graceSeconds), limit],
    );
    for (const { id } of rows) await this.enqueue(String(id), 0, `q${Date.now()}`);
    if (rows.length > 0) this.logger.warn({ count: rows.length }, 'overdue searches re-enqueued');
    return rows.length;
  }

  /** Ends requests still `processing` past the limit as `unexpected_error`: none waits for ever. */
  async expireStuck(limitSeconds: number, limit = 500): Promise<number> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM eligibility_requests
       WHERE status = 'processing' AND created_at < now() - ($1 || ' seconds')::interval
       ORDER BY created_at LIMIT $2`,
      [String(limitSeconds), limit],
    );
    let expired = 0;
    for (const { id } of rows) if (await this.fail(String(id), 'unexpected_error')) expired++;
    if (expired > 0)
      this.logger.warn({ count: expired }, 'stuck searches ended as unexpected_error');
    return expired;
  }
}

/**
 * A plain INSERT ... RETURNING id of new entities, which keep every value as built and get their
 * ids. Not `save()`: its change detection deep-copies and merges every entity, the benefit-tree
 * jsonb included, and was the largest share of a search's CPU (bench/README.md).
 */
async function insertReturningIds<T extends { id: string }>(
  em: EntityManager,
  target: EntityTarget<T>,
  rows: T[],
): Promise<T[]> {
  if (rows.length === 0) return rows;
  const { raw } = await em
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(rows as QueryDeepPartialEntity<T>[])
    .updateEntity(false)
    .returning('id')
    .execute();
  // PostgreSQL returns the rows of a multi-row VALUES in the order given.
  (raw as { id: string | number }[]).forEach((r, i) => (rows[i].id = String(r.id)));
  return rows;
}

class TimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function summary(r: EligibilityRequest): EligibilitySummary {
  return {
    id: r.id,
    uid: r.uid,
    kind: r.kind,
    status: r.status,
    errorCode: r.errorCode,
    insurerCodes: r.insurerCodes,
    patientName: `${r.query.firstName} ${r.query.lastName}`,
    createdAt: r.createdAt,
    completedAt: r.completedAt,
  };
}

function toInsurerPerson(p: EligibilityPerson): InsurerPerson {
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    dob: p.dob,
    sex: p.sex,
    memberId: p.memberId,
    ssnLastFour: p.ssnLastFour,
    type: p.type,
    address: p.address,
    email: p.email,
    phone: p.phone,
    isActive: p.isActive,
    plan: p.plan,
  };
}

function toPlanResult(r: EligibilityResult, persons: EligibilityPerson[]): InsurerPlanResult {
  return {
    status: r.status,
    planName: r.planName,
    planGroup: r.planGroup,
    planGroupId: r.planGroupId,
    planBeginDate: r.planBeginDate,
    planEndDate: r.planEndDate,
    planRefreshDate: r.planRefreshDate,
    planIsActive: r.planIsActive,
    persons: persons.map(toInsurerPerson),
  };
}
