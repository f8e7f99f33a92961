import { defineHook } from '@/platform/kernel/hooks';
import type { ServiceRecord } from '@/lib/benefits';

/** A person a found plan covers, as the insurer names them: whose history is looked up. */
export interface HistoryPerson {
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD`. */
  dob: string;
  memberId: string | null;
}

/** One person of one insurer's plan. */
export interface HistoryLookup {
  insurerCode: string;
  person: HistoryPerson;
}

/**
 * The practice's own history of services (docs/api.md, Next eligible dates: the practice's
 * history): its claims filed through the service, their remittances, and staff entries on its
 * patient records. Declared here and implemented by the patients module, because patients
 * (and claims, through it) import eligibility and never the other way (docs/architecture.md,
 * Module graph).
 */
export interface BenefitHistoryPort {
  /**
   * For each lookup, in order, the account's services on record of that person with that
   * insurer (matched as docs/api.md says: date of birth and names, member id when both have one).
   */
  servicesOf(accountId: string, lookups: readonly HistoryLookup[]): Promise<ServiceRecord[][]>;
}

/** The port's hook, injected into PlanHistory. */
export const BenefitHistory = defineHook<BenefitHistoryPort>('BenefitHistory');
