import { Body, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import { EstimateResponse } from './dto/estimate.response';
import {
  EXAMPLE_INLINE_REQUEST,
  EXAMPLE_RESPONSE,
  EXAMPLE_STORED_REQUEST,
} from './estimate.examples';
import { EstimatesService } from '../domain/estimates.service';
import { Audited } from '@/modules/audit';

@ApiExtraModels(EstimateResponse)
@ApiController('Estimates', 'api/auth/v1/estimates')
export class EstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  @ApiWrite('', 200, {
    scope: 'eligibility:read',
    audit: Audited('estimate', 'create', 'body:request_uid'),
    errors: [
      [
        400,
        {
          errors: {
            services: { '0': { cost: { $: ['A valid number is required.'] } } },
            person_id: { $: ['Person 98 is not in eligibility request visit-2026-11-21-0042.'] },
          },
        },
      ],
      [404, { detail: 'Eligibility request visit-2026-11-21-0042 not found.' }],
    ],
    summary: 'Estimate what the insurer will pay back for a receipt',
    description:
      "On a stored result's person plan (`request_uid` + `person_id`) or an inline V2 `plan`, for " +
      'the `oon` (default) or `inn` network. Each service line is mapped to a benefit by its ' +
      'codes (or `benefit_code`). Per benefit group — a package item (a benefit code ending in ' +
      '`package`) and its sub-items form one group; any other benefit is its own group:\n\n' +
      '- capped = min(cost × quantity, the allowance of the benefit on the network, following the ' +
      "tree's inheritance) × (1 − coinsurance/100); 0 when there is no allowance on the network, " +
      'the benefit is used up (no quantity left) or absent, or the line is unmapped;\n' +
      '- group reimbursement = min(Σ charges − the group copayment, Σ capped), never below 0.\n\n' +
      'Lines whose allowance comes from the same benefit share it once (two frames; a lens ' +
      "option inheriting the lenses' allowance), and only the part of an allowance not already " +
      'used or reserved counts. A benefit not yet available on `date_of_service` (today when ' +
      "absent: its item's `next_eligible` date, else its `next_eligible_date`, after that day) " +
      'pays nothing. Every line carries `notes` saying why its cap is what it is. ' +
      'Money in as decimal strings or numbers, out as four-decimal strings; nothing is stored.',
  })
  @ApiBody({
    type: CreateEstimateDto,
    examples: {
      inlinePlan: {
        summary: 'A VSP-like plan inline: exam, frame, two lenses, a refraction',
        value: EXAMPLE_INLINE_REQUEST,
      },
      storedResult: {
        summary: 'The same receipt on a person of a complete eligibility result',
        value: EXAMPLE_STORED_REQUEST,
      },
    },
  })
  @ApiOkResponse({
    description:
      'The estimate. For the example: exam capped at $45, frame at $70, the pair of single-vision ' +
      'lenses at $30, the refraction unmapped: $145.00 of $420.00 back.',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/EstimateResponse' },
        example: EXAMPLE_RESPONSE,
      },
    },
  })
  estimate(@Req() req: AppRequest, @Body() body: CreateEstimateDto): Promise<EstimateResponse> {
    return this.estimates.estimate(req.auth!.accountId, body);
  }
}
