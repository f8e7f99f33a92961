import { Body, Param, Query, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { type ApiRouteDoc, ApiRead, ApiWrite, INVALID_CURSOR } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { CreatePatientDto } from './dto/create-patient.dto';
import { ListPatientsQuery } from './dto/list-patients.query';
import { PatientListResponse, PatientResponse } from './dto/patient.response';
import { PatientsService } from '../domain/patients.service';
import {
  LinkEligibilityDto,
  PatientEligibilityLink,
  PatientEligibilityLinkList,
} from './dto/patient-link.dto';
import { PatientLinksService } from '../domain/patient-links.service';
import { Audited } from '@/modules/audit';

export const CODE = { name: 'code', example: 'PAT4Q7ZK2MX' };
export const NOT_FOUND: [404, unknown] = [404, { detail: 'Patient PAT4Q7ZK2MX not found.' }];
/** A GET of one patient by its code. */
export const READ_ONE: Omit<ApiRouteDoc, 'summary'> = {
  scope: 'patients:read',
  audit: Audited('patient', 'read', 'param:code'),
  param: CODE,
  errors: [NOT_FOUND],
};

@ApiController('Patients', 'api/auth/v1/patients')
export class PatientsController {
  constructor(
    private readonly patients: PatientsService,
    private readonly patientLinks: PatientLinksService,
  ) {}

  @ApiWrite('', 200, {
    scope: 'patients:write',
    audit: Audited('patient', 'create', 'result:code'),
    summary: 'Create a patient',
    description:
      'Names are stored and returned in lower case. A patient with the same first name, last ' +
      'name and date of birth in the account is "similar": it is refused with a whole-request ' +
      'error naming the existing patient, unless `force_similar` is true. Answers 200.',
    answer: PatientResponse,
    errors: [
      [
        400,
        {
          errors: {
            $: [
              'A similar patient already exists: PAT4Q7ZK2MX. Send "force_similar": true to save this patient anyway.',
            ],
          },
        },
      ],
    ],
  })
  create(@Req() req: AppRequest, @Body() body: CreatePatientDto): Promise<PatientResponse> {
    return this.patients.create(req.auth!.accountId, body);
  }

  @ApiRead('', {
    scope: 'patients:read',
    audit: Audited('patient', 'list'),
    summary: 'List patients',
    description:
      'Newest first, keyset-paginated: pass `next_cursor` back as `cursor` until it is null. ' +
      'Filters combine (AND).',
    answer: PatientListResponse,
    errors: [INVALID_CURSOR],
  })
  list(@Req() req: AppRequest, @Query() query: ListPatientsQuery): Promise<PatientListResponse> {
    return this.patients.list(req.auth!.accountId, query);
  }

  @ApiRead(':code', { ...READ_ONE, summary: 'Get a patient by code', answer: PatientResponse })
  get(@Req() req: AppRequest, @Param('code') code: string): Promise<PatientResponse> {
    return this.patients.getByCode(req.auth!.accountId, code);
  }

  @ApiWrite(':code/eligibility', 200, {
    scope: ['patients:write', 'eligibility:read'],
    audit: Audited('patient', 'link', 'param:code'),
    summary: 'Link an eligibility request to the patient',
    description:
      'Idempotent. Answers the link with the request’s current V2 results and the patient’s page in the web application.',
    param: CODE,
    answer: PatientEligibilityLink,
    errors: [
      [400, { errors: { request_uid: { $: ['Eligibility request visit-0042 not found.'] } } }],
      NOT_FOUND,
    ],
  })
  link(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: LinkEligibilityDto,
  ): Promise<PatientEligibilityLink> {
    return this.patientLinks.link(req.auth!.accountId, code, body.request_uid);
  }

  @ApiRead(':code/eligibility', {
    ...READ_ONE,
    scope: ['patients:read', 'eligibility:read'],
    summary: "The patient's linked eligibility requests, newest first",
    answer: PatientEligibilityLinkList,
  })
  async links(
    @Req() req: AppRequest,
    @Param('code') code: string,
  ): Promise<PatientEligibilityLinkList> {
    return { result: await this.patientLinks.list(req.auth!.accountId, code) };
  }
}
