import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PatientRecords, type PatientRecordsPort } from '@/modules/eligibility';
import { PatientLinksService } from '../domain/patient-links.service';
import { PatientsService } from '../domain/patients.service';

/**
 * The patients side of eligibility's check-form port (`PatientRecords`): the form is filled
 * from a patient record and the check it starts is linked to it.
 */
@Injectable()
export class PatientRecordsBinding implements PatientRecordsPort, OnModuleInit {
  constructor(
    private readonly records: PatientRecords,
    private readonly patients: PatientsService,
    private readonly links: PatientLinksService,
  ) {}

  onModuleInit(): void {
    this.records.bind(this);
  }

  getByCode(accountId: string, code: string) {
    return this.patients.getByCode(accountId, code);
  }

  link(accountId: string, code: string, requestUid: string) {
    return this.links.link(accountId, code, requestUid);
  }
}
