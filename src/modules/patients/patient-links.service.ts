import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ValidationFailed } from '@/common/errors';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { EligibilityQueryService } from '@/modules/eligibility/eligibility-query.service';
import { PatientEligibilityLink } from './dto/patient-link.dto';
import { PatientsService } from './patients.service';

/** Ties eligibility requests to a patient record (CONTRACT §6). */
@Injectable()
export class PatientLinksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
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
    await this.db.query(
      `INSERT INTO patient_eligibility_links (patient_id, request_id, account_id) VALUES ($1, $2, $3)
       ON CONFLICT (patient_id, request_id) DO NOTHING`,
      [patient.id, request.id, accountId],
    );
    const [link] = await this.render(accountId, patient.code, [request.id]);
    return link;
  }

  /** The patient's links, newest first. */
  async list(accountId: string, code: string): Promise<PatientEligibilityLink[]> {
    const patient = await this.patients.findByCode(accountId, code);
    const rows: { request_id: string }[] = await this.db.query(
      `SELECT request_id FROM patient_eligibility_links WHERE patient_id = $1 AND account_id = $2
       ORDER BY created_at DESC, request_id DESC LIMIT 500`,
      [patient.id, accountId],
    );
    return this.render(
      accountId,
      patient.code,
      rows.map((r) => String(r.request_id)),
    );
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
