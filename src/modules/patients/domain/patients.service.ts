import { Injectable, Logger } from '@nestjs/common';
import { generateCode, withUniqueRetry } from '@/platform/kernel/codes';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { Database } from '@/platform/db/database';
import { AccountsService, LocationRef } from '@/modules/accounts';
import type { CreatePatientDto } from '../api/dto/create-patient.dto';
import { LIST_DEFAULT_PAGE_SIZE } from '@/platform/http/pagination/list-query';
import { ListPatientsQuery } from '../api/dto/list-patients.query';
import { PatientListResponse, PatientResponse } from '../api/dto/patient.response';
import { Patient, patientAddress, PatientSex } from '../store/patient.entity';
import { PatientFilter, PatientsRepository } from '../store/patients.repository';

@Injectable()
export class PatientsService {
  private readonly logger = new Logger(PatientsService.name);

  constructor(
    private readonly database: Database,
    private readonly patients: PatientsRepository,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * Creates a patient (docs/api.md, Patients). One with the same names and dob already in the account is
   * "similar" and refused unless `force_similar`; an advisory lock on those values makes the
   * check hold under concurrent requests too.
   */
  async create(accountId: string, input: CreatePatientDto): Promise<PatientResponse> {
    const location = await this.accounts.resolveLocation(accountId, input.location_code);
    const firstName = input.first_name.toLowerCase();
    const lastName = input.last_name.toLowerCase();
    const middleName = input.middle_name ? input.middle_name.toLowerCase() : null;
    const key = { accountId, firstName, lastName, dob: input.dob };
    const patient = await withUniqueRetry(() =>
      this.database.transaction(async (tx) => {
        await this.patients.lockSimilar(key, tx);
        if (input.force_similar !== true) {
          const similar = await this.patients.findSimilar(key, tx);
          if (similar) {
            throw ValidationFailed.request(
              `A similar patient already exists: ${similar.code}. ` +
                'Send "force_similar": true to save this patient anyway.',
            );
          }
        }
        return this.patients.insert(
          {
            accountId,
            locationId: location.id,
            code: generateCode('PAT'),
            firstName,
            middleName,
            lastName,
            dob: input.dob,
            sex: (input.sex ?? null) as PatientSex | null,
            ssnLastFour: input.ssn_last_four ?? null,
            email: input.email ?? null,
            phone: input.phone ?? null,
            address: input.address ? patientAddress(input.address) : null,
            accountNumber: input.account_number || null,
          },
          tx,
        );
      }),
    );
    this.logger.log({ accountId, patient: patient.code }, 'patient created');
    return PatientResponse.from(patient, LocationRef.from(location));
  }

  async getByCode(accountId: string, code: string): Promise<PatientResponse> {
    const patient = await this.findByCode(accountId, code);
    const location = await this.accounts.getLocationById(accountId, patient.locationId);
    return PatientResponse.from(patient, LocationRef.from(location!));
  }

  /** The patient entity of the account; the same 404 for a missing one and another account's. */
  async findByCode(accountId: string, code: string): Promise<Patient> {
    const patient = await this.patients.findOne(accountId, code);
    if (!patient) throw new NotFoundError(`Patient ${code} not found.`);
    return patient;
  }

  /** Which of `codes` name patients of the account (an appointment's `patient_code`). */
  existingCodes(accountId: string, codes: string[]): Promise<Set<string>> {
    return this.patients.existingCodes(accountId, [...new Set(codes)]);
  }

  async list(accountId: string, query: ListPatientsQuery): Promise<PatientListResponse> {
    const page = await this.patients.page(
      accountId,
      await this.filterOf(accountId, query),
      pageRequest(query),
    );
    const locations = new Map(
      (await this.accounts.listLocations(accountId)).map((l) => [l.id, LocationRef.from(l)]),
    );
    return {
      result: page.result.map((p) => PatientResponse.from(p, locations.get(p.locationId)!)),
      next_cursor: page.next_cursor,
    };
  }

  /** The list's query parameters as a filter (the location code resolved: 400 when unknown). */
  private async filterOf(accountId: string, query: ListPatientsQuery): Promise<PatientFilter> {
    const location = query.location_code
      ? await this.accounts.resolveLocation(accountId, query.location_code)
      : null;
    return {
      locationId: location?.id,
      dob: query.dob,
      accountNumber: query.account_number,
      words: (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5),
    };
  }
}

const pageRequest = (query: ListPatientsQuery) => ({
  limit: query.limit ?? LIST_DEFAULT_PAGE_SIZE,
  cursor: query.cursor,
});
