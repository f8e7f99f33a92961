import { Injectable } from '@nestjs/common';
import { ValidationFailed } from '@/platform/kernel/errors';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Implements } from '@/platform/kernel/hooks';
import {
  EligibilityQueryService,
  PatientRecords,
  type PatientRecordsPort,
} from '@/modules/eligibility';
import { PatientEligibilityLink } from '../api/dto/patient-link.dto';
import { PatientsRepository } from '../store/patients.repository';
import { PatientsService } from './patients.service';

/**
 * Ties eligibility requests to a patient record (docs/api.md, Patients); the check form fills
 * itself from the record and links its check through eligibility's PatientRecords hook.
 */
@Implements(PatientRecords)
@Injectable()
export class PatientLinksService implements PatientRecordsPort {
  constructor(
    private readonly repository: PatientsRepository,
    private readonly patients: PatientsService,
    private readonly eligibility: EligibilityQueryService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Links (idempotently) and answers the link with the request's current results. */
  async link(accountId: string, code: string, requestUid: string): Promise<PatientEligibilityLink> {
    const patient = await this.patients.findByCode(accountId, code);
    const request = await this.eligibility.findRequest(accountId, requestUid);
    if (!request)
      throw ValidationFailed.field('request_uid', `Eligibility request ${requestUid} not found.`);
    await this.repository.link(accountId, patient.id, request.id);
    const [link] = await this.render(accountId, patient.code, [request.id]);
    return link;
  }

  getByCode(accountId: string, code: string) {
    return this.patients.getByCode(accountId, code);
  }

  /** The patient's links, newest first. */
  async list(accountId: string, code: string): Promise<PatientEligibilityLink[]> {
    const patient = await this.patients.findByCode(accountId, code);
    const requestIds = await this.repository.linkedRequestIds(accountId, patient.id);
    return this.render(accountId, patient.code, requestIds);
  }

  /** Where staff see the patient in the web application. */
  patientUrl(code: string): string {
    return `${this.config.publicUrl}/app/patients/${encodeURIComponent(code)}/`;
  }

  private async render(
    accountId: string,
    patientCode: string,
    requestIds: string[],
  ): Promise<PatientEligibilityLink[]> {
    const found = await this.eligibility.resultsByIds(accountId, requestIds);
    return requestIds.flatMap((id) => {
      const r = found.get(id);
      return r
        ? [
            {
              request_uid: r.uid,
              provider_app_url: this.patientUrl(patientCode),
              results: r.results as unknown[] | null,
            },
          ]
        : [];
    });
  }
}
