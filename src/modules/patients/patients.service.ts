import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import { generateCode, withUniqueRetry } from '@/common/codes';
import { NotFoundError, ValidationFailed } from '@/common/errors';
import { escapeLike } from '@/common/keyset-cursor';
import { fetchKeysetPage, keysetQuery } from '@/common/pagination/keyset-paginator';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { LocationRef } from '@/modules/accounts/dto/location.dto';
import type { CreatePatientDto } from './dto/create-patient.dto';
import { DEFAULT_PAGE_SIZE, ListPatientsQuery } from './dto/list-patients.query';
import { PatientListResponse, PatientResponse } from './dto/patient.response';
import { Patient, PatientAddress, PatientSex } from './patient.entity';

@Injectable()
export class PatientsService {
  private readonly logger = new Logger(PatientsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Patient) private readonly patients: Repository<Patient>,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * Creates a patient (CONTRACT §6). One with the same names and dob already in the account is
   * "similar" and refused unless `force_similar`; an advisory lock on those values makes the
   * check hold under concurrent requests too.
   */
  async create(accountId: string, input: CreatePatientDto): Promise<PatientResponse> {
    const location = await this.accounts.resolveLocation(accountId, input.location_code);
    const firstName = input.first_name.toLowerCase();
    const lastName = input.last_name.toLowerCase();
    const middleName = input.middle_name ? input.middle_name.toLowerCase() : null;
    const patient = await withUniqueRetry(() =>
      this.db.transaction(async (em) => {
        await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `patient-similar:${accountId}:${lastName}:${firstName}:${input.dob}`,
        ]);
        if (input.force_similar !== true) {
          const similar = await em.findOne(Patient, {
            where: { accountId, firstName, lastName, dob: input.dob },
            order: { createdAt: 'ASC', id: 'ASC' },
          });
          if (similar) {
            throw ValidationFailed.request(
              `A similar patient already exists: ${similar.code}. ` +
                'Send "force_similar": true to save this patient anyway.',
            );
          }
        }
        return em.save(
          em.create(Patient, {
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
            address: input.address ? toAddress(input.address) : null,
            accountNumber: input.account_number || null,
          }),
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
    const patient = await this.patients.findOne({ where: { accountId, code } });
    if (!patient) throw new NotFoundError(`Patient ${code} not found.`);
    return patient;
  }

  /**
   * The page query: the list's filters under the keyset paginator (newest first, one index range
   * scan from the cursor's row, so deep pages cost what the first one does).
   */
  async listQuery(
    accountId: string,
    query: ListPatientsQuery,
  ): Promise<SelectQueryBuilder<Patient>> {
    const qb = this.patients
      .createQueryBuilder('p')
      .where('p.account_id = :accountId', { accountId });
    if (query.location_code) {
      const location = await this.accounts.resolveLocation(accountId, query.location_code);
      qb.andWhere('p.location_id = :locationId', { locationId: location.id });
    }
    if (query.dob) qb.andWhere('p.dob = :dob', { dob: query.dob });
    if (query.account_number) {
      qb.andWhere('p.account_number = :accountNumber', { accountNumber: query.account_number });
    }
    const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5);
    words.forEach((word, i) => {
      qb.andWhere(
        `(p.first_name LIKE :w${i} ESCAPE '\\' OR p.last_name LIKE :w${i} ESCAPE '\\' ` +
          `OR p.middle_name LIKE :w${i} ESCAPE '\\')`,
        { [`w${i}`]: `%${escapeLike(word)}%` },
      );
    });
    return keysetQuery(qb, pageRequest(query));
  }

  async list(accountId: string, query: ListPatientsQuery): Promise<PatientListResponse> {
    const page = await fetchKeysetPage(await this.listQuery(accountId, query), pageRequest(query));
    const locations = new Map(
      (await this.accounts.listLocations(accountId)).map((l) => [l.id, LocationRef.from(l)]),
    );
    return {
      result: page.result.map((p) => PatientResponse.from(p, locations.get(p.locationId)!)),
      next_cursor: page.next_cursor,
    };
  }
}

const pageRequest = (query: ListPatientsQuery) => ({
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
  cursor: query.cursor,
});

function toAddress(a: NonNullable<CreatePatientDto['address']>): PatientAddress {
  return {
    line1: a.line1 ?? null,
    line2: a.line2 ?? null,
    recipient: a.recipient ?? null,
    city: a.city ?? null,
    zipcode: a.zipcode ?? null,
    state: a.state ?? null,
  };
}
