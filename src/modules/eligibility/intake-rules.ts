import { MSG } from '@/common/messages';
import { isKnownInsurer } from '@/modules/insurers/insurer-codes';
import type { MemberQuery } from '@/modules/insurers/insurer-connector';
import type { CreateEligibilityDto } from './dto/create-eligibility.dto';

/** The intake's rules of one eligibility request body, shared by single requests and batch items. */

export const DUPLICATE_UID = 'Eligibility request with this request uid already exists.';

/** The insurers a request asks, and what is wrong with them (CONTRACT §4). */
export function insurerCodesOf(dto: CreateEligibilityDto): {
  codes: string[];
  /** Field errors (`insurer_code`). */
  fieldErrors: Record<string, string>;
  /** Whole-request errors (unknown insurer codes, CONTRACT §3). */
  requestErrors: string[];
} {
  const codes = dto.insurer_code_list ?? (dto.insurer_code ? [dto.insurer_code] : []);
  const fieldErrors: Record<string, string> = {};
  if (codes.length === 0) fieldErrors.insurer_code = MSG.required;
  const requestErrors = codes
    .filter((c) => !isKnownInsurer(c))
    .map((c) => `Unknown insurer code: ${c}.`);
  return { codes, fieldErrors, requestErrors };
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
  };
}
