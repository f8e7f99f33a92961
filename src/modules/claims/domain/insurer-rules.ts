import type { CreateClaimDto } from '../api/dto/create-claim.dto';
import { insurerName } from '@/modules/insurers';

export interface RuleViolation {
  /** Dotted field path, as in the error envelope (`patient.sex`, `services`). */
  path: string;
  message: string;
}

const VSP_RULES = ['insurer:vision:vsp', 'insurer:demo:vision'];
const EYEMED_RULES = ['insurer:vision:eye_med'];

const blank = (v: string | null | undefined) => v === undefined || v === null || v === '';

/**
 * The per-insurer requirements of docs/api.md, Claims, checked at creation and reported as field errors.
 * VSP and the sandbox: `sex` on both persons, a diagnosis on at least one service, and the primary
 * member identified by `member_id` or `ssn_last_four`. EyeMed: `member_id` on the primary member,
 * and on a patient who is not the member (`type` other than `self`, or unknown).
 */
export function insurerRuleViolations(claim: CreateClaimDto): RuleViolation[] {
  const insurer = claim.primary_member.insurer_code;
  const name = insurerName(insurer);
  const required = `This field is required for ${name} claims.`;
  const out: RuleViolation[] = [];

  if (VSP_RULES.includes(insurer)) {
    if (blank(claim.patient.sex)) out.push({ path: 'patient.sex', message: required });
    if (blank(claim.primary_member.sex))
      out.push({ path: 'primary_member.sex', message: required });
    if (!claim.services.some((s) => (s.diagnosis_codes ?? []).length > 0)) {
      out.push({
        path: 'services',
        message: `At least one service needs a diagnosis code for ${name} claims.`,
      });
    }
    if (blank(claim.primary_member.member_id) && blank(claim.primary_member.ssn_last_four)) {
      const message = `Either member_id or ssn_last_four is required for ${name} claims.`;
      out.push({ path: 'primary_member.member_id', message });
      out.push({ path: 'primary_member.ssn_last_four', message });
    }
  }

  if (EYEMED_RULES.includes(insurer)) {
    if (blank(claim.primary_member.member_id)) {
      out.push({ path: 'primary_member.member_id', message: required });
    }
    const isSelf = (claim.patient.type ?? '').trim().toLowerCase() === 'self';
    if (!isSelf && blank(claim.patient.member_id)) {
      out.push({
        path: 'patient.member_id',
        message: `This field is required for ${name} claims when the patient's type is not "self".`,
      });
    }
  }
  return out;
}
