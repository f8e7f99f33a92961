import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { generateUid, isUniqueViolation } from '@/platform/kernel/codes';
import { ErrorCollector, ValidationFailed } from '@/platform/kernel/errors';
import { Database } from '@/platform/db/database';
import { AccountsService } from '@/modules/accounts';
import { RateLimiter } from '@/modules/auth';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import { type BatchItemRow, BatchesRepository } from '../../batches/store/batches.repository';
import { validateBatchBody } from './batch-validation';
import type { CreateEligibilityDto } from '../../api/dto/create-eligibility.dto';
import { EligibilityRequestsRepository } from '../../store/eligibility-requests.repository';
import { DUPLICATE_UID, insurerCodesOf, memberQueryOf, storedOptionsOf } from './intake-rules';

const DUPLICATE_BATCH_UID = 'Eligibility batch with this batch uid already exists.';

/**
 * Batch intake (docs/api.md, Batches): every item is checked exactly as a single request is (the DTO,
 * then the intake's rules: insurers, location, request_uid unique in the account and in the
 * batch); any error refuses the whole batch, each keyed by its item's index. The items are
 * stored with one set-based INSERT and their jobs added in bulk.
 */
@Injectable()
export class BatchIntake {
  private readonly logger = new Logger(BatchIntake.name);

  constructor(
    private readonly database: Database,
    private readonly batches: BatchesRepository,
    private readonly requests: EligibilityRequestsRepository,
    private readonly accounts: AccountsService,
    private readonly queue: BatchSearchQueue,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Validates a batch body (CreateBatchDto), stores the batch and its items as `processing` and
   * enqueues them; answers the batch uid and the item count. A batch spends its items from its
   * sender's hourly budget (`spender`: the API key, or the web user who uploaded it) once it is
   * found valid (docs/api.md, Batches): past it, 429 and nothing stored.
   */
  async create(
    accountId: string,
    body: unknown,
    spender: { apiKeyId: string } | { userId: string },
  ): Promise<{ uid: string; count: number }> {
    const dto = await validateBatchBody(body);
    const errors = new ErrorCollector();
    const batchUid = dto.batch_uid || generateUid();
    if (dto.batch_uid && (await this.batches.exists(accountId, dto.batch_uid)))
      errors.add('batch_uid', DUPLICATE_BATCH_UID);
    const rows = await this.checkItems(accountId, dto.items, errors);
    errors.throwIfAny();
    const budgetKey = 'apiKeyId' in spender ? spender.apiKeyId : `user:${spender.userId}`;
    await this.limiter.spend('batch_items', budgetKey, rows.length);

    let ids: string[];
    try {
      ids = await this.database.transaction(async (tx) => {
        const batchId = await this.batches.insert(accountId, batchUid, rows.length, tx);
        const items = await this.batches.insertItems(accountId, batchId, rows, tx);
        // The rows are the record and due now: their jobs are added after the commit, and the
        // answer does not wait for them (10,000 take seconds; the sweeper covers an outage).
        this.queue.dispatchAllInTx(tx, items);
        return items;
      });
    } catch (e) {
      // Lost a race with a concurrent request: the unique indexes decide, reported as above.
      if (isUniqueViolation(e, 'eligibility_batches_account_uid_key'))
        throw ValidationFailed.field('batch_uid', DUPLICATE_BATCH_UID);
      if (isUniqueViolation(e, 'eligibility_requests_account_uid_key')) {
        const again = new ErrorCollector();
        await this.checkExistingUids(accountId, dto.items, again);
        again.throwIfAny();
      }
      throw e;
    }
    this.logger.log({ accountId, count: ids.length }, 'eligibility batch accepted');
    return { uid: batchUid, count: ids.length };
  }

  private async checkItems(
    accountId: string,
    items: CreateEligibilityDto[],
    errors: ErrorCollector,
  ): Promise<BatchItemRow[]> {
    // Every distinct location code is looked up once.
    const locations = new Map<string, { id: string } | string>();
    for (const code of new Set(items.map((i) => i.location_code || ''))) {
      try {
        locations.set(code, await this.accounts.resolveLocation(accountId, code || null));
      } catch (e) {
        if (!(e instanceof ValidationFailed)) throw e;
        locations.set(code, (e.errors.location_code as { $: string[] }).$[0]);
      }
    }
    const firstIndexOfUid = new Map<string, number>();
    // Keys in descending order: the newest-first paginator then lists items in upload order.
    const keys = items.map(() => randomUUID()).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const rows = items.map((item, index): BatchItemRow => {
      const at = (field: string) => (field ? `items.${index}.${field}` : `items.${index}`);
      const { codes, fieldErrors, requestErrors } = insurerCodesOf(item);
      for (const [field, message] of Object.entries(fieldErrors)) errors.add(at(field), message);
      for (const message of requestErrors) errors.add(at(''), message);
      const location = locations.get(item.location_code || '')!;
      if (typeof location === 'string') errors.add(at('location_code'), location);
      if (item.request_uid) {
        const first = firstIndexOfUid.get(item.request_uid);
        if (first !== undefined)
          errors.add(at('request_uid'), `Duplicate of items.${first}.request_uid in this batch.`);
        else firstIndexOfUid.set(item.request_uid, index);
      }
      return {
        uid: item.request_uid || generateUid(),
        location_id: typeof location === 'string' ? '' : location.id,
        codes,
        query: memberQueryOf(item),
        options: storedOptionsOf(item),
        key: keys[index],
      };
    });
    await this.checkExistingUids(accountId, items, errors);
    return rows;
  }

  /** request_uid already used by a request of the account: the single request's field error. */
  private async checkExistingUids(
    accountId: string,
    items: CreateEligibilityDto[],
    errors: ErrorCollector,
  ): Promise<void> {
    const given = items.map((i) => i.request_uid).filter((u): u is string => Boolean(u));
    if (given.length === 0) return;
    const takenSet = await this.requests.takenUids(accountId, given);
    items.forEach((item, index) => {
      if (item.request_uid && takenSet.has(item.request_uid))
        errors.add(`items.${index}.request_uid`, DUPLICATE_UID);
    });
  }
}
