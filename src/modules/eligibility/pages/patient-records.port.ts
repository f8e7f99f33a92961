import { defineHook } from '@/platform/kernel/hooks';

/** What the check form shows of a patient record it is filled from. */
export interface CheckFormPatient {
  first_name: string;
  last_name: string;
  dob: string;
  ssn_last_four: string | null;
  address: { zipcode: string | null } | null;
}

/**
 * What the check form (`/app/eligibility/new?patient=CODE`) needs of the patients module,
 * declared here and implemented by patients (`@Implements(PatientRecords)`), because patients
 * imports eligibility and never the other way (docs/architecture.md, Module graph).
 */
export interface PatientRecordsPort {
  /** The account's patient by code; a missing one answers the patients module's 404. */
  getByCode(accountId: string, code: string): Promise<CheckFormPatient>;
  /** Links the check `requestUid` to the account's patient `code`. */
  link(accountId: string, code: string, requestUid: string): Promise<unknown>;
}

/** The port's hook, injected into the check form's controller. */
export const PatientRecords = defineHook<PatientRecordsPort>('PatientRecords');
