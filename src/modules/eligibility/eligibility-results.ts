import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { pgQueryable, type Queryable } from '@/database/pg-pool';
import { SequenceBlock } from '@/database/sequence-block';
import type { InsurerPlanResult } from '@/modules/insurers/insurer-connector';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';
import { BatchCompletion } from './batch-completion';
import type { EligibilityErrorCode } from './eligibility-request.entity';
import { EligibilityPerson, EligibilityResult } from './eligibility-result.entity';
import { renderResult } from './eligibility.renderer';

const PLAN_TOKEN_DAYS = 30;

type StoredResults = { result: EligibilityResult; persons: EligibilityPerson[] }[];

interface Outcome {
  status: 'complete' | 'error';
  errorCode: EligibilityErrorCode | null;
  results: StoredResults | null;
  errorDetail?: string | null;
}

/** What finishing needs of a request (a run has it from its lease; others read it). */
export interface Head {
  requestId: string;
  uid: string;
  accountId: string;
  batchId: string | null;
}

/**
 * The finishing write, one statement: the request ends (only while it is still `processing`:
 * the row lock makes a second finisher wait and then find it finished) and its results and
 * persons are stored, with the ids allocated beforehand; the webhook outbox adds its deliveries
 * (a CTE `deliveries` selecting from `request`). Answers one row when it finished the request.
 */
const FINISH_CTES = `WITH request AS (
    UPDATE eligibility_requests
    SET status = $2, error_code = $3, body_v1 = $4, body_v2 = $5, insurer_outcomes = NULL, completed_at = now()
    WHERE id = $1 AND status = 'processing'
    RETURNING id, account_id, uid),
  results AS (
    INSERT INTO eligibility_results (id, request_id, account_id, position, insurer_code, status, plan_name,
      plan_group, plan_group_id, plan_begin_date, plan_end_date, plan_refresh_date, plan_is_active)
    SELECT x.id, request.id, request.account_id, x.position, x.insurer_code, x.status, x.plan_name,
      x.plan_group, x.plan_group_id, x.plan_begin_date, x.plan_end_date, x.plan_refresh_date, x.plan_is_active
    FROM request, jsonb_to_recordset($6::jsonb) AS x(id bigint, position smallint, insurer_code varchar,
      status varchar, plan_name text, plan_group text, plan_group_id text, plan_begin_date date,
      plan_end_date date, plan_refresh_date date, plan_is_active boolean)),
  persons AS (
    INSERT INTO eligibility_persons (id, result_id, account_id, position, first_name, last_name, dob, sex,
      member_id, ssn_last_four, type, address, email, phone, is_active, insurer_state, plan, plan_token,
      plan_token_expired_at)
    SELECT x.id, x.result_id, request.account_id, x.position, x.first_name, x.last_name, x.dob, x.sex,
      x.member_id, x.ssn_last_four, x.type, x.address, x.email, x.phone, x.is_active, x.insurer_state, x.plan,
      x.plan_token, x.plan_token_expired_at
    FROM request, jsonb_to_recordset($7::jsonb) AS x(id bigint, result_id bigint, position smallint,
      first_name text, last_name text, dob date, sex text, member_id text, ssn_last_four text, type text,
      address jsonb, email text, phone text, is_active boolean, insurer_state varchar, plan jsonb,
      plan_token char(64), plan_token_expired_at date))`;

/**
 * Finishing a request: stores its results, renders both bodies once, and records its webhook
 * deliveries, all in one statement, so it happens once whoever gets there first (a worker, a
 * duplicate job, the watchdog). One round trip for a run, which knows its request from its lease
 * (ids for the new rows come from blocks taken ahead, SequenceBlock); the watchdog reads the
 * request first. A batch item's statement runs in a transaction with its batch's count.
 */
@Injectable()
export class EligibilityResults {
  private readonly logger = new Logger(EligibilityResults.name);
  /** The hot statements go straight to the driver's pool (bench/README.md). */
  private readonly pg: Queryable;
  private readonly resultIds: SequenceBlock;
  private readonly personIds: SequenceBlock;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
    private readonly batches: BatchCompletion,
  ) {
    this.pg = pgQueryable(db);
    this.resultIds = new SequenceBlock(this.pg, 'eligibility_results_id_seq');
    this.personIds = new SequenceBlock(this.pg, 'eligibility_persons_id_seq');
  }

  /**
   * Ends the request `complete` with these plans (in this order); false when already finished.
   * `known`: the request as the caller's lease answered it (else it is read).
   */
  async complete(
    requestId: string,
    found: { code: string; plan: InsurerPlanResult }[],
    known?: Head,
  ): Promise<boolean> {
    const head = known ?? (await this.head(requestId));
    if (!head) return false;
    const personCount = found.reduce((n, f) => n + f.plan.persons.length, 0);
    const [resultIds, personIdList] = await Promise.all([
      this.resultIds.take(found.length),
      this.personIds.take(personCount),
    ]);
    const personIds = personIdList.values();
    const results: StoredResults = found.map(({ code, plan }, position) => {
      const result: EligibilityResult = {
        id: resultIds[position],
        requestId,
        accountId: head.accountId,
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
      };
      const persons = plan.persons.map((p, i): EligibilityPerson => ({
        // The connector's person has the entity's own field names.
        ...p,
        id: personIds.next().value!,
        resultId: result.id,
        accountId: head.accountId,
        position: i,
        insurerState: p.plan.insurer_state,
        planToken: p.plan.insurer_state === 'inn' ? randomBytes(32).toString('hex') : null,
        planTokenExpiredAt: p.plan.insurer_state === 'inn' ? daysFromNow(PLAN_TOKEN_DAYS) : null,
      }));
      return { result, persons };
    });
    return this.finish(head, { status: 'complete', errorCode: null, results });
  }

  /**
   * Ends the request `error` with `errorCode`; false when already finished. `known`: as above.
   * `errorDetail`: the answer's `error_detail` when not the code's own words.
   */
  async fail(
    requestId: string,
    errorCode: EligibilityErrorCode,
    known?: Head,
    errorDetail: string | null = null,
  ): Promise<boolean> {
    const head = known ?? (await this.head(requestId));
    if (!head) return false;
    return this.finish(head, { status: 'error', errorCode, results: null, errorDetail });
  }

  /** The request, when still processing. */
  private async head(requestId: string): Promise<Head | null> {
    const rows: { uid: string; account_id: string; batch_id: string | null; status: string }[] =
      await this.pg.query(
        'SELECT uid, account_id, batch_id, status FROM eligibility_requests WHERE id = $1',
        [requestId],
      );
    const row = rows[0];
    if (!row || row.status !== 'processing') return null;
    return {
      requestId,
      uid: row.uid,
      accountId: row.account_id,
      batchId: row.batch_id === null ? null : String(row.batch_id),
    };
  }

  private async finish(head: Head, outcome: Outcome): Promise<boolean> {
    const input = { uid: head.uid, ...outcome };
    const bodyV1 = renderResult(input, 'v1');
    const bodyV2 = renderResult(input, 'v2');
    const deliveries = this.outbox.finishingDeliveries(
      8,
      { v1: bodyV1, v2: bodyV2 },
      { v1: '$4', v2: '$5' },
    );
    const statement = `${FINISH_CTES}, ${deliveries.cte}
      SELECT request.id, ${deliveries.summary} AS deliveries FROM request`;
    const params = [
      head.requestId,
      outcome.status,
      outcome.errorCode,
      bodyV1,
      bodyV2,
      JSON.stringify((outcome.results ?? []).map(({ result }) => resultRow(result))),
      JSON.stringify((outcome.results ?? []).flatMap(({ persons }) => persons.map(personRow))),
      ...deliveries.params,
    ];
    const write = async (q: Queryable) => {
      const rows = await q.query<{ deliveries: unknown }[]>(statement, params);
      return rows.length === 0 ? null : deliveries.read(rows[0].deliveries);
    };
    // A single request is one statement, atomic by itself; a batch item also counts in its batch,
    // in the same transaction (last, so the batch's row lock is held for the shortest time).
    const finished = !head.batchId
      ? await write(this.pg).then((leased) =>
          leased ? { deliveries: leased, batchDeliveries: [] as string[] } : null,
        )
      : await this.db.transaction(async (em) => {
          const leased = await write(em);
          if (!leased) return null;
          const batchDeliveries = await this.batches.itemFinishedInTx(
            em,
            head.batchId!,
            outcome.status,
          );
          return { deliveries: leased, batchDeliveries };
        });
    if (!finished) return false;
    await this.outbox.deliver(finished.deliveries);
    await this.batches.dispatch(finished.batchDeliveries);
    this.logger.log(
      {
        requestId: head.requestId,
        status: outcome.status,
        errorCode: outcome.errorCode,
        results: outcome.results?.length ?? 0,
      },
      'eligibility request finished',
    );
    return true;
  }
}

/** A result as a row of FINISH's recordset. */
function resultRow(r: EligibilityResult) {
  return {
    id: r.id,
    position: r.position,
    insurer_code: r.insurerCode,
    status: r.status,
    plan_name: r.planName,
    plan_group: r.planGroup,
    plan_group_id: r.planGroupId,
    plan_begin_date: r.planBeginDate,
    plan_end_date: r.planEndDate,
    plan_refresh_date: r.planRefreshDate,
    plan_is_active: r.planIsActive,
  };
}

/** A person as a row of FINISH's recordset. */
function personRow(p: EligibilityPerson) {
  return {
    id: p.id,
    result_id: p.resultId,
    position: p.position,
    first_name: p.firstName,
    last_name: p.lastName,
    dob: p.dob,
    sex: p.sex,
    member_id: p.memberId,
    ssn_last_four: p.ssnLastFour,
    type: p.type,
    address: p.address,
    email: p.email,
    phone: p.phone,
    is_active: p.isActive,
    insurer_state: p.insurerState,
    plan: p.plan,
    plan_token: p.planToken,
    plan_token_expired_at: p.planTokenExpiredAt,
  };
}

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
