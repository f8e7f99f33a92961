import { Injectable } from '@nestjs/common';
import { ErrorCollector, NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { type Plan, planFromJson, PlanJson } from '@/lib/benefits';
import { EligibilityQueryService } from '@/modules/eligibility';
import { CreateEstimateDto } from '../api/dto/create-estimate.dto';
import { nextEligibleDates } from './estimate.availability';
import { estimateReimbursement } from './estimate.rules';
import type { Estimate } from './estimate.types';

const SOURCE_MESSAGE = 'Give either request_uid and person_id, or plan.';
const BOTH_SOURCES_MESSAGE = 'Give either request_uid and person_id, or plan, not both.';

interface StoredResult {
  status: string;
  results:
    | {
        plan_name: string;
        insurer_code: string;
        persons: { id: number; full_name: string; type: string; dob: string; plan?: PlanJson }[];
      }[]
    | null;
}

/** A person of a stored result, with their plan (for the web page's heading and choices). */
export interface StoredPerson {
  id: number;
  fullName: string;
  type: string;
  planName: string;
  insurerCode: string;
  plan: Plan;
  /** The `next_eligible` dates its plan's items state (docs/api.md, Next eligible dates). */
  nextEligible: ReadonlyMap<string, string | null>;
}

/**
 * Out-of-network (or in-network) reimbursement estimates (docs/api.md, Estimates). Nothing is stored: the
 * plan is a stored result's person plan, read through the eligibility service (so another
 * account's request is answered 404 like a missing one), or a plan sent inline.
 */
@Injectable()
export class EstimatesService {
  constructor(private readonly eligibility: EligibilityQueryService) {}

  async estimate(accountId: string, dto: CreateEstimateDto): Promise<Estimate> {
    const { plan, nextEligible } = await this.planFor(accountId, dto);
    return estimateReimbursement(
      plan,
      dto.network ?? 'oon',
      dto.services.map((s) => ({
        codes: s.codes.map((c) => c.trim().toUpperCase()),
        benefit_code: s.benefit_code || null,
        cost: s.cost,
        quantity: s.quantity ?? 1,
      })),
      { dateOfService: dto.date_of_service ?? null, nextEligible },
    );
  }

  private async planFor(
    accountId: string,
    dto: CreateEstimateDto,
  ): Promise<Pick<StoredPerson, 'plan' | 'nextEligible'>> {
    const source = planSource(dto);
    if (source === 'plan') {
      const json = dto.plan as unknown as PlanJson;
      return { plan: planFromJson(json), nextEligible: nextEligibleDates(json.items) };
    }
    return this.storedPerson(accountId, source.uid, source.personId);
  }

  /** The person of a page: a result not complete or a person not in it is a missing page. */
  async pagePerson(accountId: string, uid: string, personId: string): Promise<StoredPerson> {
    const missing = new NotFoundError(`Person ${personId} is not in eligibility request ${uid}.`);
    if (!/^\d{1,15}$/.test(personId)) throw missing;
    try {
      return await this.storedPerson(accountId, uid, Number(personId));
    } catch (e) {
      throw e instanceof ValidationFailed ? missing : e;
    }
  }

  /**
   * One person of a complete result of the account, with their V2 plan. Unknown (or another
   * account's) uid → 404 "Eligibility request {uid} not found."; a result not complete or a person
   * not in it → field errors on `request_uid` / `person_id` (docs/api.md, Estimates).
   */
  async storedPerson(accountId: string, uid: string, personId: number): Promise<StoredPerson> {
    const { result, person } = await this.storedEntry(accountId, uid, personId);
    return {
      id: person.id,
      fullName: person.full_name,
      type: person.type,
      planName: result.plan_name,
      insurerCode: result.insurer_code,
      plan: planFromJson(person.plan!),
      nextEligible: nextEligibleDates(person.plan!.items),
    };
  }

  /** The same person as the result's body states them, with the result (the counter's too). */
  async storedEntry(accountId: string, uid: string, personId: number) {
    const body = JSON.parse(await this.eligibility.getBody(accountId, uid, 'v2')) as StoredResult;
    if (body.status !== 'complete')
      throw ValidationFailed.field('request_uid', `Eligibility request ${uid} is not complete.`);
    for (const result of body.results ?? []) {
      const person = result.persons.find((p) => p.id === personId && p.plan);
      if (person) return { result, person };
    }
    throw ValidationFailed.field(
      'person_id',
      `Person ${personId} is not in eligibility request ${uid}.`,
    );
  }
}

/**
 * Which source of its plan a request gives (an estimate's, a quote's): `plan`, or `request_uid`
 * with `person_id`; both, neither or half of the second are the request's errors.
 */
export function planSource(
  dto: Pick<CreateEstimateDto, 'request_uid' | 'person_id' | 'plan'>,
): 'plan' | { uid: string; personId: number } {
  const hasUid = Boolean(dto.request_uid);
  const hasPerson = dto.person_id !== undefined && dto.person_id !== null;
  if (dto.plan) {
    if (hasUid || hasPerson) throw ValidationFailed.request(BOTH_SOURCES_MESSAGE);
    return 'plan';
  }
  if (!hasUid && !hasPerson) throw ValidationFailed.request(SOURCE_MESSAGE);
  const errors = new ErrorCollector();
  if (!hasUid) errors.add('request_uid', MSG.required);
  if (!hasPerson) errors.add('person_id', MSG.required);
  errors.throwIfAny();
  return { uid: dto.request_uid!, personId: dto.person_id! };
}
