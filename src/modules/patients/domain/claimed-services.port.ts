import { defineHook } from '@/platform/kernel/hooks';
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
 * The practice's claims as history (docs/api.md, Next eligible dates): declared here and
 * implemented by the claims module, because claims imports patients and never the other way
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

/** The port's hook, injected into the benefit history. */
export const ClaimedServices = defineHook<ClaimedServicesPort>('ClaimedServices');
