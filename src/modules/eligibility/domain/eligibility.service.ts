import { Injectable, Logger } from '@nestjs/common';
import { generateUid, isUniqueViolation } from '@/platform/kernel/codes';
import { ErrorCollector, NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { AccountsService } from '@/modules/accounts';
import { CreateDetailsDto, CreateEligibilityDto } from '../api/dto/create-eligibility.dto';
import { EligibilityRequestsRepository } from '../store/eligibility-requests.repository';
import { EligibilityQueryService } from '../read/domain/eligibility-query.service';
import { SearchQueue } from '../jobs/search.queue';
import { type IntakeRow, type IntakeStored, IntakeWriter } from '../intake/domain/intake-writer';
import {
  DUPLICATE_UID,
  insurerCodesOf,
  memberQueryOf,
  storedOptionsOf,
} from '../intake/domain/intake-rules';

/**
 * Intake: validates a search or details request against the account's data, stores it as
 * `processing` and dispatches its search. The route from there: SearchQueue (its lane, or Bull) →
 * SearchRunner → decideNext → SearchFinisher → webhook outbox.
 */
@Injectable()
export class EligibilityService {
  private readonly logger = new Logger(EligibilityService.name);
  private readonly writer: IntakeWriter;

  constructor(
    private readonly requests: EligibilityRequestsRepository,
    private readonly accounts: AccountsService,
    private readonly queries: EligibilityQueryService,
    private readonly queue: SearchQueue,
  ) {
    this.writer = new IntakeWriter(requests, queue.spec.leaseMs, () => queue.ownerId);
  }

  /** Stores the request as `processing`, enqueues its search, and returns its uid. */
  async create(accountId: string, dto: CreateEligibilityDto): Promise<string> {
    const { codes, fieldErrors, requestErrors } = insurerCodesOf(dto);
    const row = {
      accountId,
      uid: dto.request_uid || generateUid(),
      uidField: 'request_uid',
      kind: 'search' as const,
      parentId: null,
      locationId: null,
      insurerCodes: codes,
      query: memberQueryOf(dto),
      target: null,
      options: storedOptionsOf(dto),
    };
    if (Object.keys(fieldErrors).length === 0 && requestErrors.length === 0) {
      // The usual case: the location is resolved inside the INSERT (one round trip); only when
      // it names none is it looked up again, for its error.
      const uid = await this.insertAndEnqueue({ ...row, locationCode: dto.location_code || null });
      if (uid !== null) return uid;
    }
    const errors = new ErrorCollector();
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
      // docs/api.md, Errors: an unknown insurer is a whole-request error.
      throw new ValidationFailed({ ...errors.tree, $: requestErrors });
    }
    errors.throwIfAny();
    // The location appeared between the two looks: it is there now.
    return (await this.insertAndEnqueue({ ...row, locationId: location!.id, locationCode: null }))!;
  }

  /** A details request for one person of a complete result (docs/api.md, Eligibility). */
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
    const result = await this.requests.findResult(dto.result_id, parent.id);
    if (!result)
      errors.add(
        'result_id',
        `Result ${dto.result_id} does not belong to eligibility request ${pathUid}.`,
      );
    else if (!(await this.requests.personOfResult(dto.person_id, result.id)))
      errors.add(
        'person_id',
        `Person ${dto.person_id} does not belong to result ${dto.result_id}.`,
      );
    errors.throwIfAny();
    return (await this.insertAndEnqueue({
      accountId,
      uid: dto.details_request_uid || generateUid(),
      uidField: 'details_request_uid',
      kind: 'details',
      parentId: parent.id,
      locationId: parent.locationId,
      locationCode: null,
      insurerCodes: [result!.insurer_code],
      query: parent.query,
      target: { result_id: dto.result_id, person_id: dto.person_id },
    }))!;
  }

  /**
   * Inserts the request and starts its search; answers its uid, or null when its location code
   * (null: the default) names no location of the account. Where this process runs
   * searches and its lane has room, the row is stored already leased to a run in the lane, and
   * the INSERT answers what the run needs (the run then makes no lease round trip); otherwise the
   * row is stored due and dispatched.
   */
  private async insertAndEnqueue({
    uidField,
    ...row
  }: Omit<IntakeRow, 'leaseJob'> & { uidField: string }): Promise<string | null> {
    const jobId = this.queue.reserveRun();
    let inserted: IntakeStored | undefined;
    try {
      // The unique index on (account_id, uid) decides between concurrent duplicates.
      inserted = await this.writer.store({ ...row, leaseJob: jobId });
    } catch (e) {
      if (jobId) this.queue.cancelRun(jobId);
      if (isUniqueViolation(e, 'eligibility_requests_account_uid_key')) {
        throw ValidationFailed.field(uidField, DUPLICATE_UID);
      }
      throw e;
    }
    if (!inserted) {
      if (jobId) this.queue.cancelRun(jobId);
      return null;
    }
    const id = String(inserted.id);
    if (jobId) await this.queue.submitRun(jobId, id, inserted);
    else await this.queue.dispatch(id);
    this.logger.log(
      { requestId: id, accountId: row.accountId, kind: row.kind },
      'eligibility request accepted',
    );
    return row.uid;
  }
}
