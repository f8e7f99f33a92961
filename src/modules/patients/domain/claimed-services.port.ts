import { Injectable } from '@nestjs/common';
import type { HistoryBenefitCode } from '@/lib/benefits';

/** One service line of a claim the practice filed through the service, as history counts it. */
export interface ClaimedService {
  claimCode: string;
  insurerCode: string;
  /** The patient as the claim names them. */
  patient: { firstName: string; lastName: string; dob: string; memberId: string | null };
  /** The line's procedure code that uses up the benefit (`V2020`). */
  procedureCode: string;
  benefitCode: HistoryBenefitCode;
  /** The line's date of service. */
  date: string;
  /** `remittance` when the claim's 835 paid the line, else `claim`. */
  source: 'claim' | 'remittance';
}

/**
 * The practice's claims as history (docs/api.md, Next eligible dates): declared here and bound by
 * the claims module at start-up, because claims imports patients and never the other way
 * (docs/architecture.md, Module graph).
 */
export interface ClaimedServicesPort {
  /**
   * The account's claimed services of patients born on one of `dobs` (of these insurers when
   * given), the most recent first, at most MAX_CLAIMED_SERVICES.
   */
  servicesOf(
    accountId: string,
    dobs: readonly string[],
    insurerCodes: readonly string[] | null,
  ): Promise<ClaimedService[]>;
}

/** The most claimed service lines one lookup reads (a bound on memory, whatever the account). */
export const MAX_CLAIMED_SERVICES = 1_000;

/** The port's one binding; without one (a process built without claims) no claim is on record. */
@Injectable()
export class ClaimedServices implements ClaimedServicesPort {
  private port: ClaimedServicesPort | null = null;

  bind(port: ClaimedServicesPort): void {
    this.port = port;
  }

  servicesOf(
    accountId: string,
    dobs: readonly string[],
    insurerCodes: readonly string[] | null,
  ): Promise<ClaimedService[]> {
    if (!this.port || dobs.length === 0) return Promise.resolve([]);
    return this.port.servicesOf(accountId, dobs, insurerCodes);
  }
}
