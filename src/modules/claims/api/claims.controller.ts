import { Body, Param, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiResponse,
} from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import {
  type ApiRouteDoc,
  ApiRead,
  ApiWrite,
  ApiX12Answer,
  INVALID_CURSOR,
  sendText,
} from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import {
  CLAIM_RESPONSE_EXAMPLE,
  EYEMED_CHILD_CLAIM_EXAMPLE,
  VSP_CLAIM_EXAMPLE,
} from './claim.examples';
import { ClaimsService } from '../domain/claims.service';
import { ClaimListResponse, ClaimResponse } from './dto/claim.response';
import { CreateClaimDto } from './dto/create-claim.dto';
import { ListClaimsQuery } from './dto/list-claims.query';
import { NotifyCustomerDto } from './dto/notify-customer.dto';
import { Audited } from '@/modules/audit';

const CODE = { name: 'code', example: 'CLM8D3K6TQW' };
const NOT_FOUND: [404, unknown] = [404, { detail: 'Claim CLM8D3K6TQW not found.' }];
/** A GET of one claim by its code. */
const READ_ONE: Omit<ApiRouteDoc, 'summary'> = {
  scope: 'claims:read',
  audit: Audited('claim', 'read', 'param:code'),
  param: CODE,
  errors: [NOT_FOUND],
};

@ApiExtraModels(CreateClaimDto)
@ApiController('Claims', 'api/auth/v1/claims')
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @ApiWrite('', 201, {
    scope: 'claims:write',
    audit: Audited('claim', 'create', 'result:code'),
    summary: 'Create an out-of-network vision claim',
    description:
      '1 to 6 services. Money is sent as decimal strings (or numbers) and returned with four ' +
      "decimals. A service's `cost` is the price of one unit: a line is charged `cost` × " +
      '`quantity` and `total_cost` is the sum of the line charges. `paid_amount` is never ' +
      'refused for differing from that total. Insurer rules, reported as field errors: VSP ' +
      'and the sandbox need `sex` on both persons, a diagnosis on at least one service and ' +
      '`member_id` or `ssn_last_four` on the primary member; EyeMed needs `member_id` on the ' +
      'primary member and on a patient whose `type` is not `self`. An unknown insurer code is ' +
      'a whole-request error.',
    errors: [
      [
        400,
        {
          errors: {
            patient: { sex: { $: ['This field is required for VSP Vision Care claims.'] } },
            services: { '3': { cost: { $: ['A valid number is required.'] } } },
          },
        },
      ],
    ],
  })
  @ApiBody({
    type: CreateClaimDto,
    examples: {
      vsp: {
        summary: 'VSP: exam 92014, lenses V2100, frame V2020',
        value: VSP_CLAIM_EXAMPLE,
      },
      eyemedChild: {
        summary: "EyeMed: a child's exam, benefits assigned",
        value: EYEMED_CHILD_CLAIM_EXAMPLE,
      },
    },
  })
  @ApiCreatedResponse({
    description: 'The claim, with its code and status `ready`.',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ClaimResponse' },
        example: CLAIM_RESPONSE_EXAMPLE,
      },
    },
  })
  @ApiExtraModels(ClaimResponse)
  create(@Req() req: AppRequest, @Body() body: CreateClaimDto): Promise<ClaimResponse> {
    return this.claims.create(req.auth!.accountId, body);
  }

  @ApiRead('', {
    scope: 'claims:read',
    audit: Audited('claim', 'list'),
    summary: 'List claims',
    description: 'Newest first; pass `next_cursor` back as `cursor` until it is null.',
    answer: ClaimListResponse,
    errors: [INVALID_CURSOR],
  })
  list(@Req() req: AppRequest, @Query() query: ListClaimsQuery): Promise<ClaimListResponse> {
    return this.claims.list(req.auth!.accountId, query);
  }

  @ApiRead(':code', {
    ...READ_ONE,
    summary: 'Get a claim by code',
    answer: ClaimResponse,
  })
  get(@Req() req: AppRequest, @Param('code') code: string): Promise<ClaimResponse> {
    return this.claims.getByCode(req.auth!.accountId, code);
  }

  @ApiRead(':code/form', {
    ...READ_ONE,
    summary: 'Get the claim form (CMS-1500 PDF)',
    description:
      'The claim on the CMS-1500 (02/12) layout, each field in its numbered box: patient and ' +
      'insured with full addresses, diagnoses (box 21), every service line with all its codes, ' +
      'modifiers, diagnosis pointers, units and charges (24A–J), totals, service facility and ' +
      "billing provider (32, 33), and the insurer's claims mailing address (the shipped table's " +
      "or the account's own). On the paper route the patient mails it with the receipts; the " +
      'notify-customer e-mail attaches it.',
  })
  @ApiOkResponse({
    description: 'The claim form: US Letter, one page per six service lines.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  async form(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Res() res: Response,
  ): Promise<void> {
    const { filename, pdf } = await this.claims.form(req.auth!.accountId, code);
    res.setHeader('content-disposition', `inline; filename="${filename}"`);
    // Sent in one `res.end` (not streamed), which the audit trail holds until its event is stored.
    res.status(200).type('application/pdf').send(Buffer.from(pdf));
  }

  @ApiRead(':code/x12', {
    ...READ_ONE,
    summary: 'Get the 837P as submitted',
    description:
      'The X12 005010X222A1 837P interchange as last sent to the clearinghouse. A claim that ' +
      'went the paper route (or was not sent yet) has none: 404.',
  })
  @ApiX12Answer(
    'The interchange.',
    'ISA*00*          *00*          *ZZ*VISIONELIG     *ZZ*CLEARINGHOUSE  *...~',
  )
  async x12(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    return sendText(res, await this.claims.x12(req.auth!.accountId, code));
  }

  @ApiWrite(':code/mailed', 200, {
    scope: 'claims:write',
    audit: Audited('claim', 'update', 'param:code'),
    param: CODE,
    errors: [NOT_FOUND],
    summary: 'Mark a paper claim as mailed',
    description:
      'A claim the service cannot send electronically waits in `ready_to_mail` with its ' +
      'CMS-1500 claim form (GET .../form/). Once the form is in the mail, this moves the claim ' +
      'to `submitted` (channel `paper`): recorded in `status_history`, and a ' +
      '`claim.status_changed` webhook delivery as for any other change. No body.',
  })
  @ApiOkResponse({ description: 'The claim, now `submitted`.', type: ClaimResponse })
  @ApiResponse({
    status: 409,
    description: 'The claim is not `ready_to_mail` (an electronic claim, or one already mailed).',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorDetail' },
        example: {
          detail:
            'Claim CLM8D3K6TQW is submitted, not ready_to_mail: only a paper claim waiting to be mailed can be marked as mailed.',
        },
      },
    },
  })
  mailed(@Req() req: AppRequest, @Param('code') code: string): Promise<ClaimResponse> {
    return this.claims.markMailed(req.auth!.accountId, code, 'through the API');
  }

  @ApiWrite(':code/notify-customer', 200, {
    scope: 'claims:write',
    audit: Audited('claim', 'notify', 'param:code'),
    param: CODE,
    errors: [[400, { errors: { email: { $: ['Enter a valid email address.'] } } }], NOT_FOUND],
    summary: 'E-mail the patient the claim and what to do with it',
    description:
      'Queues an e-mail (HTML and plain text) to `email` naming the claim code, the patient, the ' +
      'insurer, each service and the amounts, with the CMS-1500 claim form PDF attached. For a ' +
      'paper claim it tells the patient to print the form, sign boxes 12 and 13 and mail it with ' +
      "the itemized receipts to the insurer's claims mailing address (printed in full); for an " +
      'electronic one, what happens next. It is sent shortly after, over SMTP, with retries; the ' +
      'answer does not wait for it.',
  })
  @ApiOkResponse({
    description: 'Queued.',
    content: {
      'application/json': {
        schema: { type: 'object', properties: {}, additionalProperties: false },
        example: {},
      },
    },
  })
  async notifyCustomer(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: NotifyCustomerDto,
  ): Promise<Record<string, never>> {
    await this.claims.notifyCustomer(req.auth!.accountId, code, body.email);
    return {};
  }
}
