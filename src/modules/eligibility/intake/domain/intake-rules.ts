import type { ErrorTree } from '@/platform/kernel/errors';
import type { StoredOptions } from '../../domain/search-outcome';
import { MSG } from '@/platform/kernel/messages';
import { isKnownInsurer, type MemberQuery, unknownInsurerMessages } from '@/modules/insurers';
import type { CreateEligibilityDto } from '../../api/dto/create-eligibility.dto';

/** The intake's rules of one eligibility request body, shared by single requests and batch items. */

export const DUPLICATE_UID = 'Eligibility request with this request uid already exists.';

/** The insurers a request asks, and what is wrong with them (docs/api.md, Eligibility). */
export function insurerCodesOf(dto: CreateEligibilityDto): {
  codes: string[];
  /** Field errors (`insurer_code`). */
  fieldErrors: Record<string, string>;
  /** Whole-request errors (unknown insurer codes, docs/api.md, Errors). */
  requestErrors: string[];
} {
  const codes = dto.insurer_code_list ?? (dto.insurer_code ? [dto.insurer_code] : []);
  const fieldErrors: Record<string, string> = {};
  if (codes.length === 0) fieldErrors.insurer_code = MSG.required;
  const requestErrors = codes.filter((c) => !isKnownInsurer(c)).flatMap(unknownInsurerMessages);
  return { codes, fieldErrors, requestErrors };
}

/**
 * What insurerCodesOf will say about a body refused for its fields, said now (docs/api.md, Errors: all
 * errors of a request together): no insurer at all, or unknown codes. A code (or a list) with
 * errors of its own is left to them; so is a list refused as a whole (too long: the answer
 * stays bounded).
 */
export function insurerErrorsOfBody(sent: unknown, errors: ErrorTree): void {
  // No body at all is validated as `{}`.
  const body = sent === undefined ? {} : sent;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const { insurer_code: code, insurer_code_list: list } = body as Record<string, unknown>;
  let given: unknown[];
  if (list !== undefined && list !== null) {
    const listErrors = errors.insurer_code_list as ErrorTree | undefined;
    if (!Array.isArray(list) || listErrors?.$) return;
    given = list.filter((_, i) => !listErrors?.[String(i)]);
  } else {
    if (errors.insurer_code) return;
    if (code === undefined || code === null || code === '') {
      errors.insurer_code = { $: [MSG.required] };
      return;
    }
    given = [code];
  }
  const unknown = given
    .filter((c): c is string => typeof c === 'string')
    .map((c) => c.trim())
    .filter((c) => c !== '' && !isKnownInsurer(c));
  if (unknown.length > 0) (errors.$ ??= []).push(...unknown.flatMap(unknownInsurerMessages));
}

/** The patient as connectors are asked about them (stored with the request). */
export function memberQueryOf(dto: CreateEligibilityDto): MemberQuery {
  return {
    firstName: dto.patient.first_name,
    lastName: dto.patient.last_name,
    dob: dto.patient.dob,
    zipcode: dto.patient.zipcode,
    ssnLastFour: dto.patient.ssn_last_four || null,
    memberId: dto.patient.member_id || null,
    ...(dto.subscriber
      ? {
          subscriber: {
            firstName: dto.subscriber.first_name,
            lastName: dto.subscriber.last_name,
            dob: dto.subscriber.dob,
            memberId: dto.subscriber.member_id || null,
          },
        }
      : {}),
  };
}

/** The request's own choices as stored: only those it gave (none: null, the defaults). */
export function storedOptionsOf(dto: CreateEligibilityDto): StoredOptions | null {
  const options: StoredOptions = {};
  if (dto.wait_for) options.wait_for = dto.wait_for;
  if (dto.assisted) options.assisted = dto.assisted;
  if (dto.max_age_hours !== undefined && dto.max_age_hours !== null)
    options.max_age_hours = dto.max_age_hours;
  return Object.keys(options).length > 0 ? options : null;
}
