import { Body, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiController } from '@/common/api-controller';
import { ApiStandardErrors } from '@/common/api-docs';
import type { AppRequest } from '@/common/request-context';
import { CreatePatientDto } from './dto/create-patient.dto';
import { ListPatientsQuery } from './dto/list-patients.query';
import { PatientListResponse, PatientResponse } from './dto/patient.response';
import { PatientsService } from './patients.service';
import {
  LinkEligibilityDto,
  PatientEligibilityLink,
  PatientEligibilityLinkList,
} from './dto/patient-link.dto';
import { PatientLinksService } from './patient-links.service';
import { Audited } from '@/modules/audit';
import { RequireScope } from '@/modules/auth';

@ApiController('Patients', 'api/auth/v1/patients')
export class PatientsController {
  constructor(
    private readonly patients: PatientsService,
    private readonly patientLinks: PatientLinksService,
  ) {}

  @Post()
  @RequireScope('patients:write')
  @Audited('patient', 'create', 'result:code')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a patient',
    description:
      'Names are stored and returned in lower case. A patient with the same first name, last ' +
      'name and date of birth in the account is "similar": it is refused with a whole-request ' +
      'error naming the existing patient, unless `force_similar` is true. Answers 200.',
  })
  @ApiOkResponse({ type: PatientResponse })
  @ApiStandardErrors([
    400,
    {
      errors: {
        $: [
          'A similar patient already exists: PAT4Q7ZK2MX. Send "force_similar": true to save this patient anyway.',
        ],
      },
    },
  ])
  create(@Req() req: AppRequest, @Body() body: CreatePatientDto): Promise<PatientResponse> {
    return this.patients.create(req.auth!.accountId, body);
  }

  @Get()
  @RequireScope('patients:read')
  @Audited('patient', 'list')
  @ApiOperation({
    summary: 'List patients',
    description:
      'Newest first, keyset-paginated: pass `next_cursor` back as `cursor` until it is null. ' +
      'Filters combine (AND).',
  })
  @ApiOkResponse({ type: PatientListResponse })
  @ApiStandardErrors([400, { errors: { cursor: { $: ['Invalid cursor.'] } } }])
  list(@Req() req: AppRequest, @Query() query: ListPatientsQuery): Promise<PatientListResponse> {
    return this.patients.list(req.auth!.accountId, query);
  }

  @Get(':code')
  @RequireScope('patients:read')
  @Audited('patient', 'read', 'param:code')
  @ApiOperation({ summary: 'Get a patient by code' })
  @ApiParam({ name: 'code', example: 'PAT4Q7ZK2MX' })
  @ApiOkResponse({ type: PatientResponse })
  @ApiStandardErrors([404, { detail: 'Patient PAT4Q7ZK2MX not found.' }])
  get(@Req() req: AppRequest, @Param('code') code: string): Promise<PatientResponse> {
    return this.patients.getByCode(req.auth!.accountId, code);
  }

  @Post(':code/eligibility')
  @RequireScope(['patients:write', 'eligibility:read'])
  @Audited('patient', 'link', 'param:code')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Link an eligibility request to the patient',
    description:
      'Idempotent. Answers the link with the request’s current V2 results and the patient’s page in the web application.',
  })
  @ApiParam({ name: 'code', example: 'PAT4Q7ZK2MX' })
  @ApiOkResponse({ type: PatientEligibilityLink })
  @ApiStandardErrors(
    [400, { errors: { request_uid: { $: ['Eligibility request visit-0042 not found.'] } } }],
    [404, { detail: 'Patient PAT4Q7ZK2MX not found.' }],
  )
  link(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: LinkEligibilityDto,
  ): Promise<PatientEligibilityLink> {
    return this.patientLinks.link(req.auth!.accountId, code, body.request_uid);
  }

  @Get(':code/eligibility')
  @RequireScope(['patients:read', 'eligibility:read'])
  @Audited('patient', 'read', 'param:code')
  @ApiOperation({ summary: "The patient's linked eligibility requests, newest first" })
  @ApiParam({ name: 'code', example: 'PAT4Q7ZK2MX' })
  @ApiOkResponse({ type: PatientEligibilityLinkList })
  @ApiStandardErrors([404, { detail: 'Patient PAT4Q7ZK2MX not found.' }])
  async links(
    @Req() req: AppRequest,
    @Param('code') code: string,
  ): Promise<PatientEligibilityLinkList> {
    return { result: await this.patientLinks.list(req.auth!.accountId, code) };
  }
}
