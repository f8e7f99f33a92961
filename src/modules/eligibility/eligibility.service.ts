import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { generateUid, isUniqueViolation } from '@/common/codes';
import { ErrorCollector, NotFoundError, ValidationFailed } from '@/common/errors';
import { AccountsService } from '@/modules/accounts/accounts.service';
import type { MemberQuery } from '@/modules/insurers/insurer-connector';
import { CreateDetailsDto, CreateEligibilityDto } from './dto/create-eligibility.dto';
import { EligibilityRequest } from './eligibility-request.entity';
import { EligibilityQueryService } from './eligibility-query.service';
import { EligibilityScheduler } from './eligibility.scheduler';
import { DUPLICATE_UID, insurerCodesOf, memberQueryOf } from './intake-rules';

/**
 * Intake: validates a search or details request against the account's data, stores it as
 * `processing` and enqueues its search. The route from there: EligibilityScheduler → (queue) →
 * SearchRunner → decideNext → EligibilityResults → webhook outbox.
 */
@Injectable()
export class EligibilityService {
  private readonly logger = new Logger(EligibilityService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    private readonly queries: EligibilityQueryService,
    private readonly scheduler: EligibilityScheduler,
  ) {}

  /** Stores the request as `processing`, enqueues its search, and returns its uid. */
  async create(accountId: string, dto: CreateEligibilityDto): Promise<string> {
    const errors = new ErrorCollector();
    const { codes, fieldErrors, requestErrors } = insurerCodesOf(dto);
    for (const [field, message] of Object.entries(fieldErrors)) errors.add(field, message);
    const location = await this.accounts
      .resolveLocation(accountId, dto.location_code)
      .catch((e: unknown) => {
        if (e instanceof ValidationFailed)
          errors.add('location_code', (e.errors.location_code as { $: string[] }).$[0]);
        else throw e;
        return null;
      });
    if (requestErrors.length > 0) {
      // CONTRACT §3: an unknown insurer is a whole-request error.
      throw new ValidationFailed({ ...errors.tree, $: requestErrors });
    }
    errors.throwIfAny();

    const query = memberQueryOf(dto);
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
    const parent = await this.queries.findRequest(accountId, pathUid);
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
    await this.scheduler.enqueue(id);
    this.logger.log(
      { requestId: id, accountId: row.accountId, kind: row.kind },
      'eligibility request accepted',
    );
    return row.uid;
  }
}
