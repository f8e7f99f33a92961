import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { PatientRecords, type PatientRecordsPort } from '@/modules/eligibility';
import { PatientLinksService } from '../domain/patient-links.service';
import { PatientsService } from '../domain/patients.service';

/**
 * The patients side of eligibility's check-form hook (`PatientRecords`): the form is filled
 * from a patient record and the check it starts is linked to it.
 */
@Implements(PatientRecords)
@Injectable()
export class PatientRecordsBinding implements PatientRecordsPort {
  constructor(
    private readonly patients: PatientsService,
    private readonly links: PatientLinksService,
  ) {}

  getByCode(accountId: string, code: string) {
    return this.patients.getByCode(accountId, code);
  }

  link(accountId: string, code: string, requestUid: string) {
    return this.links.link(accountId, code, requestUid);
  }
}
