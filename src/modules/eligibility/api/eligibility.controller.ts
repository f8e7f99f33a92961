import { applyDecorators, Body, Param, Req, Res, type Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiController } from '@/platform/http/api-controller';
import { ApiNoETag } from '@/platform/http/api-document-details';
import { ApiRead, ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { CreateDetailsDto, CreateEligibilityDto } from './dto/create-eligibility.dto';
import {
  EligibilityResultV1,
  EligibilityResultV2,
  RequestUidResponse,
} from './dto/eligibility-result.response';
import { EligibilityQueryService } from '../read/domain/eligibility-query.service';
import { EligibilityService } from '../domain/eligibility.service';
import { Audited, statementAuditEvent } from '@/modules/audit';

const NOT_FOUND_EXAMPLE: [404, unknown] = [
  404,
  { detail: 'Eligibility request visit-2026-11-21-0042 not found.' },
];

/** GET of a stored result in one version: its body as stored, read and audited in one statement. */
const StoredResult = (version: 'v1' | 'v2', answer: Type, what: string) =>
  applyDecorators(
    ApiRead(`${version}/eligibility/:request_uid`, {
      scope: 'eligibility:read',
      audit: Audited('eligibility_request', 'read', 'param:request_uid', { inStatement: true }),
      summary: `Eligibility result (${version.toUpperCase()}: ${what})`,
      param: { name: 'request_uid', type: String },
      answer,
      errors: [NOT_FOUND_EXAMPLE],
    }),
    ApiNoETag(),
  );

@ApiController('Eligibility', 'api/auth')
export class EligibilityController {
  constructor(
    private readonly eligibility: EligibilityService,
    private readonly queries: EligibilityQueryService,
  ) {}

  @ApiWrite('v1/eligibility', 201, {
    scope: 'eligibility:write',
    audit: Audited('eligibility_request', 'create', 'result:request_uid'),
    answer: RequestUidResponse,
    errors: [[400, { errors: { $: ['Unknown insurer code: insurer:vision:nope.'] } }]],
    summary: 'Start an eligibility check',
    description:
      'Stores the request as `processing` and answers at once; the search runs in the background. ' +
      'The result is delivered to your webhooks and can be polled with the returned `request_uid`. ' +
      'Universal Search (`insurer_code_list`) asks up to 10 insurers in parallel and answers with ' +
      'one result: `complete` when at least one insurer answered, listing the plans of every ' +
      'insurer that answered; an insurer that failed is left out of `results`, and its entry in ' +
      '`insurers` says why. The request ends `error` only when every insurer failed. Insurers ' +
      'answered by a person are asked last, and once (`assisted`, reuse within `max_age_hours`); ' +
      '`wait_for` chooses when the answer is `complete` (docs/api.md, Universal Search insurer ' +
      'by insurer).',
  })
  @ApiBody({
    type: CreateEligibilityDto,
    // What "Try it out" sends: it runs as it is on any account, as often as you like (the
    // sandbox answers at once, no request_uid to collide, the account's default location).
    examples: {
      sandbox: {
        summary: 'A sandbox check (runs as it is)',
        value: {
          insurer_code: 'insurer:demo:vision',
          patient: {
            first_name: 'Maria',
            last_name: 'Garcia',
            dob: '1984-06-15',
            zipcode: '78701',
            member_id: 'VSP123456789',
          },
        },
      },
      universal: {
        summary: 'Universal Search with your own request_uid and location',
        // Runs as it is once on a fresh account: an empty location_code is the default location
        // (a made-up LOC… code is a field error on every account but the one that has it).
        description:
          'Put one of your `LOC…` codes (`GET /api/auth/v1/locations/`) in `location_code`; empty ' +
          "is the account's default location. `request_uid` is unique in your account: change it " +
          'before running the example again.',
        value: {
          insurer_code_list: [
            'insurer:demo:vision',
            'insurer:vision:vsp',
            'insurer:vision:eye_med',
          ],
          request_uid: 'visit-2026-11-21-0042',
          location_code: '',
          patient: {
            first_name: 'Maria',
            last_name: 'Garcia',
            dob: '1984-06-15',
            zipcode: '78701',
          },
        },
      },
    },
  })
  async create(
    @Req() req: AppRequest,
    @Body() body: CreateEligibilityDto,
  ): Promise<RequestUidResponse> {
    return { request_uid: await this.eligibility.create(req.auth!.accountId, body) };
  }

  @StoredResult('v1', EligibilityResultV1, 'persons without the benefit tree')
  async getV1(
    @Req() req: AppRequest,
    @Param('request_uid') uid: string,
    @Res() res: Response,
  ): Promise<void> {
    sendJson(res, await this.queries.getBodyRecorded(statementAuditEvent(req), uid, 'v1'));
  }

  @StoredResult('v2', EligibilityResultV2, 'with the plan and benefit tree per person')
  async getV2(
    @Req() req: AppRequest,
    @Param('request_uid') uid: string,
    @Res() res: Response,
  ): Promise<void> {
    sendJson(res, await this.queries.getBodyRecorded(statementAuditEvent(req), uid, 'v2'));
  }

  @ApiWrite('v1/eligibility/:request_uid/details', 201, {
    scope: 'eligibility:write',
    audit: Audited('eligibility_request', 'create', 'result:request_uid'),
    param: {
      name: 'request_uid',
      type: String,
      description: 'UID of the initial (complete) eligibility request',
    },
    answer: RequestUidResponse,
    errors: [
      NOT_FOUND_EXAMPLE,
      [400, { errors: { $: ['Eligibility request visit-2026-11-21-0042 is not complete.'] } }],
    ],
    summary: 'Request plan details for one person of a complete result',
    description:
      'Starts a details request: an eligibility request of its own, fetched with the same V1/V2 endpoints by the ' +
      'returned `request_uid` and delivered to webhooks; its `results` hold the one plan with the one person and the full benefit tree.',
  })
  @ApiBody({ type: CreateDetailsDto })
  async details(
    @Req() req: AppRequest,
    @Param('request_uid') uid: string,
    @Body() body: CreateDetailsDto,
  ): Promise<RequestUidResponse> {
    return { request_uid: await this.eligibility.createDetails(req.auth!.accountId, uid, body) };
  }
}

/**
 * The stored body goes out as it is: byte-identical to what webhooks deliver. Written directly
 * (Express's send would hash the body for an ETag and encode it a second time). Its audit event
 * is already stored (the statement that read it wrote it).
 */
function sendJson(res: Response, body: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
