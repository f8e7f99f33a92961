import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ApiStandardErrors } from '@/common/api-docs';
import type { AppRequest } from '@/common/request-context';
import {
  CLAIM_RESPONSE_EXAMPLE,
  EYEMED_CHILD_CLAIM_EXAMPLE,
  VSP_CLAIM_EXAMPLE,
} from './claim.examples';
import { ClaimsService } from './claims.service';
import { ClaimListResponse, ClaimResponse } from './dto/claim.response';
import { CreateClaimDto } from './dto/create-claim.dto';
import { ListClaimsQuery } from './dto/list-claims.query';
import { NotifyCustomerDto } from './dto/notify-customer.dto';

@ApiTags('Claims')
@ApiSecurity('Api')
@ApiExtraModels(CreateClaimDto)
@Controller('api/auth/v1/claims')
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an out-of-network vision claim',
    description:
      '1 to 6 services. Money is sent as decimal strings (or numbers) and returned with four ' +
      'decimals. Insurer rules, reported as field errors: VSP and the sandbox need `sex` on both ' +
      'persons, a diagnosis on at least one service and `member_id` or `ssn_last_four` on the ' +
      'primary member; EyeMed needs `member_id` on the primary member and on a patient whose ' +
      '`type` is not `self`. An unknown insurer code is a whole-request error.',
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
  @ApiStandardErrors([
    400,
    {
      errors: {
        patient: { sex: { $: ['This field is required for VSP Vision Care claims.'] } },
        services: { '3': { cost: { $: ['A valid number is required.'] } } },
      },
    },
  ])
  create(@Req() req: AppRequest, @Body() body: CreateClaimDto): Promise<ClaimResponse> {
    return this.claims.create(req.auth!.accountId, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List claims',
    description: 'Newest first; pass `next_cursor` back as `cursor` until it is null.',
  })
  @ApiOkResponse({ type: ClaimListResponse })
  @ApiStandardErrors([400, { errors: { cursor: { $: ['Invalid cursor.'] } } }])
  list(@Req() req: AppRequest, @Query() query: ListClaimsQuery): Promise<ClaimListResponse> {
    return this.claims.list(req.auth!.accountId, query);
  }

  @Get(':code')
  @ApiOperation({ summary: 'Get a claim by code' })
  @ApiParam({ name: 'code', example: 'CLM8D3K6TQW' })
  @ApiOkResponse({ type: ClaimResponse })
  @ApiStandardErrors([404, { detail: 'Claim CLM8D3K6TQW not found.' }])
  get(@Req() req: AppRequest, @Param('code') code: string): Promise<ClaimResponse> {
    return this.claims.getByCode(req.auth!.accountId, code);
  }

  @Post(':code/notify-customer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'E-mail the claim submission notification',
    description:
      'Queues an e-mail (HTML and plain text) to `email` naming the claim code, the patient, the ' +
      'insurer, each service and the amounts, and what happens next. It is sent shortly after, ' +
      'over SMTP, with retries; the answer does not wait for it.',
  })
  @ApiParam({ name: 'code', example: 'CLM8D3K6TQW' })
  @ApiOkResponse({
    description: 'Queued.',
    content: { 'application/json': { schema: { type: 'object' }, example: {} } },
  })
  @ApiStandardErrors(
    [400, { errors: { email: { $: ['Enter a valid email address.'] } } }],
    [404, { detail: 'Claim CLM8D3K6TQW not found.' }],
  )
  async notifyCustomer(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: NotifyCustomerDto,
  ): Promise<Record<string, never>> {
    await this.claims.notifyCustomer(req.auth!.accountId, code, body.email);
    return {};
  }
}
