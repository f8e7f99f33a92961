import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { historyBenefitOfCodes } from '@/lib/benefits';
import { isDecimalInput } from '@/platform/kernel/decimal';
import {
  type ClaimedService,
  ClaimedServices,
  type ClaimedServicesPort,
  MAX_CLAIMED_SERVICES,
} from '@/modules/patients';
import type { ClaimRemittance } from '../store/claim.entity';
import { type ClaimedLine, ClaimsRepository } from '../store/claims.repository';

/** A remittance line's paid amount above zero. */
const paidSomething = (paid: string) =>
  isDecimalInput(paid) && !paid.trim().startsWith('-') && /[1-9]/.test(paid);

/** Whether the claim's 835 paid a line of this procedure code (SVC01-2, the code before modifiers). */
function remitted(remittance: ClaimRemittance | null, code: string): boolean {
  return (remittance?.service_lines ?? []).some(
    (l) => (l.codes[0] ?? '').trim().toUpperCase() === code && paidSomething(l.paid),
  );
}

/**
 * The claims side of the patients module's `ClaimedServices` hook (docs/api.md, Next eligible
 * dates): each service line of the practice's claims that uses up a benefit, by its procedure
 * code and date of service; `remittance` when the claim's 835 paid that code.
 */
@Implements(ClaimedServices)
@Injectable()
export class ClaimedServicesBinding implements ClaimedServicesPort {
  constructor(private readonly claims: ClaimsRepository) {}

  async servicesOf(
    accountId: string,
    dobs: readonly string[],
    insurerCodes: readonly string[] | null,
  ): Promise<ClaimedService[]> {
    if (dobs.length === 0) return [];
    const lines = await this.claims.linesOfPatients(
      accountId,
      dobs,
      insurerCodes,
      MAX_CLAIMED_SERVICES,
    );
    return lines.flatMap((line) => {
      const service = serviceOf(line);
      return service ? [service] : [];
    });
  }
}

function serviceOf(line: ClaimedLine): ClaimedService | null {
  const used = historyBenefitOfCodes(line.codes);
  if (!used) return null;
  return {
    claimCode: line.claimCode,
    insurerCode: line.insurerCode,
    patient: {
      firstName: line.patient.first_name,
      lastName: line.patient.last_name,
      dob: line.patient.dob,
      memberId: line.patient.member_id,
    },
    procedureCode: used.code,
    benefitCode: used.benefit,
    date: line.serviceDate,
    source: remitted(line.remittance, used.code) ? 'remittance' : 'claim',
  };
}
