import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { generateUid, isUniqueViolation } from '@/common/codes';
import { ErrorCollector, ValidationFailed } from '@/common/errors';
import { AccountsService } from '@/modules/accounts/accounts.service';
import type { Location } from '@/modules/accounts/location.entity';
import { BatchSearchQueue } from './batch.queue';
import { validateBatchBody } from './batch-validation';
import type { CreateEligibilityDto } from './dto/create-eligibility.dto';
import { DUPLICATE_UID, insurerCodesOf, memberQueryOf } from './intake-rules';

const DUPLICATE_BATCH_UID = 'Eligibility batch with this batch uid already exists.';

interface ItemRow {
  uid: string;
  location_id: string;
  codes: string[];
  query: unknown;
  key: string;
}

/**
 * Batch intake (CONTRACT §13): every item is checked exactly as a single request is (the DTO,
 * then the intake's rules: insurers, location, request_uid unique in the account and in the
 * batch); any error refuses the whole batch, each keyed by its item's index. The items are
 * stored with one set-based INSERT and their jobs added in bulk.
 */
@Injectable()
export class BatchIntake {
  private readonly logger = new Logger(BatchIntake.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    private readonly queue: BatchSearchQueue,
  ) {}

  /**
   * Validates a batch body (CreateBatchDto), stores the batch and its items as `processing` and
   * enqueues them; answers the batch uid and the item count.
   */
  async create(accountId: string, body: unknown): Promise<{ uid: string; count: number }> {
    const dto = await validateBatchBody(body);
    const errors = new ErrorCollector();
    const batchUid = dto.batch_uid || generateUid();
    if (dto.batch_uid && (await this.batchExists(accountId, dto.batch_uid)))
      errors.add('batch_uid', DUPLICATE_BATCH_UID);
    const rows = await this.checkItems(accountId, dto.items, errors);
    errors.throwIfAny();

    let ids: string[];
    try {
      ids = await this.db.transaction((em) => this.insert(em, accountId, batchUid, rows));
    } catch (e) {
      // Lost a race with a concurrent request: the unique indexes decide, reported as above.
      if (isUniqueViolation(e, 'eligibility_batches_account_uid_key'))
        throw ValidationFailed.field('batch_uid', DUPLICATE_BATCH_UID);
      if (isUniqueViolation(e, 'eligibility_requests_account_uid_key')) {
        const again = new ErrorCollector();
        await this.checkExistingUids(accountId, dto.items, again);
        if (again.empty) throw e;
        again.throwIfAny();
      }
      throw e;
    }
    // The rows are the record and due now; adding 10,000 jobs takes seconds, so the answer does
    // not wait for it (enqueueAll never throws; the sweeper covers a Redis outage or a crash).
    void this.queue.enqueueAll(ids);
    this.logger.log({ accountId, count: ids.length }, 'eligibility batch accepted');
    return { uid: batchUid, count: ids.length };
  }

  private async checkItems(
    accountId: string,
    items: CreateEligibilityDto[],
    errors: ErrorCollector,
  ): Promise<ItemRow[]> {
    // Every distinct location code is looked up once.
    const locations = new Map<string, Location | string>();
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
    const rows = items.map((item, index): ItemRow => {
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
    const taken: { uid: string }[] = await this.db.query(
      `SELECT uid FROM eligibility_requests WHERE account_id = $1 AND uid = ANY($2::text[])`,
      [accountId, given],
    );
    const takenSet = new Set(taken.map((t) => t.uid));
    items.forEach((item, index) => {
      if (item.request_uid && takenSet.has(item.request_uid))
        errors.add(`items.${index}.request_uid`, DUPLICATE_UID);
    });
  }

  private async batchExists(accountId: string, uid: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM eligibility_batches WHERE account_id = $1 AND uid = $2`,
      [accountId, uid],
    );
    return rows.length > 0;
  }

  /** One INSERT for the batch, one set-based INSERT for its items; answers the items' ids in order. */
  private async insert(
    em: EntityManager,
    accountId: string,
    batchUid: string,
    rows: ItemRow[],
  ): Promise<string[]> {
    const [batch]: { id: string }[] = await em.query(
      `INSERT INTO eligibility_batches (account_id, uid, item_count, processing_count)
       VALUES ($1, $2, $3, $3) RETURNING id`,
      [accountId, batchUid, rows.length],
    );
    const inserted: { id: string }[] = await em.query(
      `WITH created AS (
         INSERT INTO eligibility_requests
           (account_id, uid, kind, location_id, insurer_codes, query, status, job_due_at, batch_id, batch_key)
         SELECT $1, x.uid, 'search', x.location_id,
                ARRAY(SELECT jsonb_array_elements_text(x.codes)), x.query, 'processing', now(), $2, x.key
         FROM ROWS FROM (jsonb_to_recordset($3::jsonb)
                AS (uid text, location_id uuid, codes jsonb, query jsonb, key uuid))
              WITH ORDINALITY AS x(uid, location_id, codes, query, key, position)
         ORDER BY x.position
         RETURNING id)
       SELECT id FROM created`,
      [accountId, batch.id, JSON.stringify(rows)],
    );
    // bigserial ids follow the insert order, which follows the items' order.
    return inserted.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  }
}
