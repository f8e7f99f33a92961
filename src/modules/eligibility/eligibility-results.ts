import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { InsurerPerson, InsurerPlanResult } from '@/modules/insurers/insurer-connector';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';
import { BatchCompletion } from './batch-completion';
import { EligibilityErrorCode, EligibilityRequest } from './eligibility-request.entity';
import { EligibilityPerson, EligibilityResult } from './eligibility-result.entity';
import { renderResult } from './eligibility.renderer';

const PLAN_TOKEN_DAYS = 30;

type StoredResults = { result: EligibilityResult; persons: EligibilityPerson[] }[];

interface Outcome {
  status: 'complete' | 'error';
  errorCode: EligibilityErrorCode | null;
  results: StoredResults | null;
}

/**
 * Finishing a request: stores its results, renders both bodies once, and records its webhook
 * deliveries, all in one transaction under a row lock, so it happens once whoever gets there
 * first (a worker, a duplicate job, the watchdog).
 */
@Injectable()
export class EligibilityResults {
  private readonly logger = new Logger(EligibilityResults.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
    private readonly batches: BatchCompletion,
  ) {}

  /** Ends the request `complete` with these plans (in this order); false when already finished. */
  async complete(
    requestId: string,
    found: { code: string; plan: InsurerPlanResult }[],
  ): Promise<boolean> {
    return this.finish(requestId, async (em, request) => {
      const results: StoredResults = [];
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

  /** Ends the request `error` with `errorCode`; false when already finished. */
  async fail(requestId: string, errorCode: EligibilityErrorCode): Promise<boolean> {
    return this.finish(requestId, async () => ({ status: 'error', errorCode, results: null }));
  }

  private async finish(
    requestId: string,
    build: (em: EntityManager, request: EligibilityRequest) => Promise<Outcome>,
  ): Promise<boolean> {
    const finished = await this.db.transaction(async (em) => {
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
          insurerOutcomes: null,
          completedAt: new Date(),
        },
      );
      const deliveries = await this.outbox.enqueueInTx(em, {
        accountId: request.accountId,
        requestId,
        requestUid: request.uid,
        bodies: { v1: bodyV1, v2: bodyV2 },
      });
      // Last, so the batch's row lock is held for the shortest time.
      const batchDeliveries = request.batchId
        ? await this.batches.itemFinishedInTx(em, request.batchId, outcome.status)
        : [];
      return {
        ...outcome,
        accountId: request.accountId,
        uid: request.uid,
        deliveries,
        batchDeliveries,
      };
    });
    if (!finished) return false;
    await this.outbox.deliver(finished.deliveries);
    await this.batches.dispatch(finished.batchDeliveries);
    this.logger.log(
      {
        requestId,
        status: finished.status,
        errorCode: finished.errorCode,
        results: finished.results?.length ?? 0,
      },
      'eligibility request finished',
    );
    return true;
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

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A stored person as the connector described it (for a details request). */
export function toInsurerPerson(p: EligibilityPerson): InsurerPerson {
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

/** A stored result as the connector described it (for a details request). */
export function toPlanResult(
  r: EligibilityResult,
  persons: EligibilityPerson[],
): InsurerPlanResult {
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
