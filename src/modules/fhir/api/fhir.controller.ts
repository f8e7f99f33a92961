import { formatInstant } from '@/platform/kernel/time';
import { All, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExcludeEndpoint, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Audited, NotPatientData, statementAuditEvent } from '@/modules/audit';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { DoorController } from '@/platform/http/doors';
import { ApiRead, ApiWrite } from '@/platform/http/api-routes';
import { RequireScope } from '@/platform/http/scopes';
import { NotFoundError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { capabilityStatement, isExtensionId, structureDefinition } from '../domain/conformance';
import { FhirService, type ResponseSearch } from '../domain/fhir.service';
import { FHIR_JSON, FHIR_PATH, type FhirResource } from '../domain/fhir.constants';
import { OperationOutcomeFilter } from './operation-outcome.filter';

const ID = { name: 'id', type: String };

/**
 * A success answer in the OpenAPI document: an `application/fhir+json` body described in words
 * (FHIR's own definitions describe the resources; the document refers to nothing outside it).
 */
const FhirAnswer = (status: 200 | 201, description: string) =>
  ApiResponse({
    status,
    description,
    content: { [FHIR_JSON]: { schema: { type: 'object', description } } },
  });

/**
 * The FHIR R4 door (docs/api.md, FHIR R4): eligibility as CoverageEligibilityRequest/$submit and
 * CoverageEligibilityResponse, with the JSON API's keys, scopes, audit and statuses. Every answer
 * is `application/fhir+json`, errors included (OperationOutcome).
 */
@DoorController('FHIR R4', FHIR_PATH)
@UseFilters(OperationOutcomeFilter)
export class FhirController {
  /** The door's base URL (absolute `Location` and `fullUrl`): PUBLIC_URL's, never the Host sent. */
  private readonly base: string;

  constructor(
    private readonly fhir: FhirService,
    @InjectConfig() config: AppConfig,
  ) {
    this.base = `${config.publicUrl.replace(/\/+$/, '')}/${FHIR_PATH}`;
  }

  @ApiRead('metadata', {
    scope: [],
    audit: NotPatientData(),
    summary: 'CapabilityStatement of the FHIR door',
  })
  @FhirAnswer(
    200,
    'A FHIR R4 CapabilityStatement: the resources, interactions, search parameters and operation of the door.',
  )
  metadata(@Res({ passthrough: true }) res: Response): FhirResource {
    return send(res, capabilityStatement());
  }

  @ApiRead('StructureDefinition/:id', {
    scope: [],
    audit: NotPatientData(),
    summary: "StructureDefinition of one of the door's extensions",
    errors: [404],
    param: ID,
  })
  @FhirAnswer(
    200,
    "A FHIR R4 StructureDefinition of one of the door's extensions (wait-for, benefit-frequency, next-eligible-date).",
  )
  structureDefinition(
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): FhirResource {
    if (!isExtensionId(id)) throw new NotFoundError(`StructureDefinition ${id} not found.`);
    return send(res, structureDefinition(id));
  }

  @ApiWrite('CoverageEligibilityRequest/$submit', 201, {
    scope: 'eligibility:write',
    audit: Audited('eligibility_request', 'create', null, { inStatement: true }),
    summary: 'Start an eligibility check from a FHIR Bundle',
    errors: [400],
    description:
      'A `collection` Bundle with one CoverageEligibilityRequest per insurer, their Patient, ' +
      'Coverage and insurer Organizations (`application/fhir+json`). Answers 201 with a ' +
      'CoverageEligibilityResponse `queued` (a `collection` Bundle of them when several).',
  })
  @ApiConsumes(FHIR_JSON, 'application/json')
  @ApiBody({
    schema: {
      type: 'object',
      description:
        'A FHIR R4 Bundle of type collection: one CoverageEligibilityRequest per insurer, their ' +
        'Patient, Coverage and insurer Organizations (identifier system ' +
        'urn:vision-eligibility:insurer-code), optionally a provider (docs/api.md, FHIR R4).',
    },
  })
  @FhirAnswer(
    201,
    'A FHIR R4 CoverageEligibilityResponse with outcome queued, or a collection Bundle of one per request (docs/api.md, FHIR R4).',
  )
  async submit(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FhirResource> {
    const responses = await this.fhir.submit(statementAuditEvent(req), req.body);
    const first = responses[0];
    res.setHeader('Location', `${this.base}/CoverageEligibilityResponse/${first.id}`);
    if (responses.length === 1) return send(res, first);
    return send(res, {
      resourceType: 'Bundle',
      // The request's own id: the Patient's, and the prefix of each response's.
      id: String(first.id).replace(/-\d+$/, ''),
      type: 'collection',
      timestamp: formatInstant(new Date(), 'api'),
      entry: responses.map((r) => ({
        fullUrl: `${this.base}/CoverageEligibilityResponse/${r.id}`,
        resource: r,
      })),
    });
  }

  @ApiRead('CoverageEligibilityResponse/:id', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_request', 'read', null, { inStatement: true }),
    summary: 'One insurer’s answer as a CoverageEligibilityResponse',
    errors: [404],
    param: ID,
  })
  @FhirAnswer(
    200,
    "A FHIR R4 CoverageEligibilityResponse: outcome queued, partial, complete or error, with the insurer's plans in insurance.",
  )
  async response(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FhirResource> {
    return send(res, await this.fhir.response(statementAuditEvent(req), id));
  }

  @ApiRead('CoverageEligibilityResponse', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_request', 'list'),
    summary: 'Search CoverageEligibilityResponses (identifier, request, patient, created)',
  })
  @FhirAnswer(
    200,
    'A FHIR R4 Bundle of type searchset holding the CoverageEligibilityResponses found.',
  )
  async search(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FhirResource> {
    const found = await this.fhir.search(req.auth!.accountId, searchOf(req.query));
    return send(res, {
      resourceType: 'Bundle',
      type: 'searchset',
      total: found.length,
      link: [
        {
          relation: 'self',
          url: `${this.base}${req.url.slice(req.url.indexOf('/CoverageEligibilityResponse'))}`,
        },
      ],
      entry: found.map((r) => ({
        fullUrl: `${this.base}/CoverageEligibilityResponse/${r.id}`,
        resource: r,
        search: { mode: 'match' },
      })),
    });
  }

  @ApiRead('Patient/:id', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_request', 'read', null, { inStatement: true }),
    summary: 'The patient of an eligibility request (US Core Patient)',
    errors: [404],
    param: ID,
  })
  @FhirAnswer(200, 'A FHIR R4 Patient (US Core 5.0.1 Patient profile).')
  async patient(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FhirResource> {
    return send(res, await this.fhir.patient(statementAuditEvent(req), id));
  }

  @ApiRead('Coverage/:id', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_request', 'read', null, { inStatement: true }),
    summary: 'The coverage an eligibility request asked one insurer about',
    errors: [404],
    param: ID,
  })
  @FhirAnswer(200, 'A FHIR R4 Coverage: member id, beneficiary and insurer.')
  async coverage(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FhirResource> {
    return send(res, await this.fhir.coverage(statementAuditEvent(req), id));
  }

  /**
   * Last: any other path under the door is a FHIR 404, not the JSON API's. Not an operation of
   * the OpenAPI document (it serves nothing).
   */
  @All('*path')
  @ApiExcludeEndpoint()
  @RequireScope([])
  @NotPatientData()
  unknown(@Req() req: Request): never {
    throw new NotFoundError(`No FHIR route ${req.method} ${req.path.split('?')[0]}.`);
  }
}

function send(res: Response, resource: FhirResource): FhirResource {
  res.type(FHIR_JSON);
  return resource;
}

function searchOf(query: Request['query']): ResponseSearch {
  const list = (v: unknown): string[] | undefined =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  return {
    identifier: list(query.identifier),
    request: list(query.request),
    patient: list(query.patient),
    created: list(query.created),
  };
}
