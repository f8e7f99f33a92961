import { Injectable, Logger } from '@nestjs/common';
import { compareDates, type ServiceRecord } from '@/lib/benefits';
import { Implements, InjectHook } from '@/platform/kernel/hooks';
import { BenefitHistory, type BenefitHistoryPort, type HistoryLookup } from '@/modules/eligibility';
import type { BenefitHistoryEntry, CreateBenefitEntryDto } from '../api/dto/benefit-history.dto';
import { BenefitHistoryRepository, type StaffEntry } from '../store/benefit-history.repository';
import {
  type ClaimedService,
  ClaimedServices,
  type ClaimedServicesPort,
} from './claimed-services.port';
import { nameKey, samePerson } from './person-match';
import { PatientsService } from './patients.service';

/**
 * The practice's own history of services (docs/api.md, Next eligible dates: the practice's
 * history): staff entries on its patient records, and the claims it filed through the service
 * with their remittances, matched to a person by date of birth and names (and member id when
 * both have one, docs/api.md says how). Every read is of one account. A finishing search reads
 * it through eligibility's BenefitHistory hook.
 */
@Implements(BenefitHistory)
@Injectable()
export class BenefitHistoryService implements BenefitHistoryPort {
  private readonly logger = new Logger(BenefitHistoryService.name);

  constructor(
    private readonly patients: PatientsService,
    private readonly entries: BenefitHistoryRepository,
    @InjectHook(ClaimedServices) private readonly claimed: ClaimedServicesPort,
  ) {}

  /** Records a staff entry on the account's patient `code` (404 for another account's). */
  async add(
    accountId: string,
    code: string,
    input: CreateBenefitEntryDto,
  ): Promise<BenefitHistoryEntry> {
    const patient = await this.patients.findByCode(accountId, code);
    const entry = await this.entries.upsert(accountId, patient.id, {
      insurerCode: input.insurer_code.trim(),
      benefitCode: input.benefit_code,
      date: input.date,
      note: input.note ? input.note : null,
    });
    this.logger.log(
      { accountId, patient: code, entry: entry.id },
      'benefit history entry recorded',
    );
    return staffEntry(entry);
  }

  /**
   * The patient's history, the most recent service first: its staff entries, and the services
   * of the account's claims whose patient has the record's names and date of birth. Those carry
   * claim codes: only a reader of claims (`withClaims`; SECURITY.md, API key scopes) is answered
   * them, and the others are not told they exist.
   */
  async list(accountId: string, code: string, withClaims: boolean): Promise<BenefitHistoryEntry[]> {
    const patient = await this.patients.findByCode(accountId, code);
    const [staff, claimed] = await Promise.all([
      this.entries.ofPatient(accountId, patient.id),
      withClaims ? this.claimed.servicesOf(accountId, [patient.dob], null) : [],
    ]);
    const own = claimed.filter((c) => samePerson(patient, c.patient));
    return [...staff.map(staffEntry), ...own.map(claimEntry)].sort(
      (a, b) =>
        compareDates(b.date, a.date) ||
        a.source.localeCompare(b.source) ||
        a.benefit_code.localeCompare(b.benefit_code),
    );
  }

  /**
   * For each lookup (a person of an insurer's plan), the services on record with that insurer:
   * staff entries of the account's patient records with the person's names and date of birth,
   * and the account's claims to that insurer whose patient matches them.
   */
  async servicesOf(
    accountId: string,
    lookups: readonly HistoryLookup[],
  ): Promise<ServiceRecord[][]> {
    if (lookups.length === 0) return [];
    const people = lookups.map(({ person }) => ({
      firstName: nameKey(person.firstName),
      lastName: nameKey(person.lastName),
      dob: person.dob,
    }));
    const insurers = [...new Set(lookups.map((l) => l.insurerCode))];
    const [staff, claimed] = await Promise.all([
      this.entries.ofPeople(accountId, people, insurers),
      this.claimed.servicesOf(accountId, [...new Set(people.map((p) => p.dob))], insurers),
    ]);
    return lookups.map(({ insurerCode, person }) => [
      ...staff
        .filter((e) => e.insurerCode === insurerCode && samePerson(person, e))
        .map((e): ServiceRecord => ({
          benefit_code: e.benefitCode,
          date: e.date,
          source: 'staff',
        })),
      ...claimed
        .filter((c) => c.insurerCode === insurerCode && samePerson(person, c.patient))
        .map((c): ServiceRecord => ({
          benefit_code: c.benefitCode,
          date: c.date,
          source: c.source,
        })),
    ]);
  }
}

function staffEntry(e: StaffEntry): BenefitHistoryEntry {
  return {
    source: 'staff',
    insurer_code: e.insurerCode,
    benefit_code: e.benefitCode,
    date: e.date,
    note: e.note,
    claim_code: null,
    procedure_code: null,
  };
}

function claimEntry(c: ClaimedService): BenefitHistoryEntry {
  return {
    source: c.source,
    insurer_code: c.insurerCode,
    benefit_code: c.benefitCode,
    date: c.date,
    note: null,
    claim_code: c.claimCode,
    procedure_code: c.procedureCode,
  };
}
