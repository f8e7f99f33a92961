import { Body, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { NotPatientData } from '@/modules/audit';
import { NextEligibleRequestDto } from './dto/next-eligible.dto';
import { NextEligibleResponse } from './dto/next-eligible.response';
import {
  EXAMPLE_NEXT_ELIGIBLE_REQUEST,
  EXAMPLE_NEXT_ELIGIBLE_RESPONSE,
} from './next-eligible.examples';
import { NextEligibleService } from '../domain/next-eligible.service';

@ApiExtraModels(NextEligibleResponse)
@ApiController('Benefits', 'api/auth/v1/benefits')
export class NextEligibleController {
  constructor(private readonly nextEligible: NextEligibleService) {}

  @ApiWrite('next-eligible', 200, {
    scope: 'eligibility:read',
    // Up to 1,000 history entries of 4 values (the object, its benefit code, date and source)
    // and 100 rules of at most 19 (ten `shared_with` codes included): about 5,910 values, over
    // the default; the bytes stay far below 1 MiB.
    body: { maxValues: 8_000 },
    // Benefit codes and dates of service with nothing naming a patient, and nothing stored or
    // read: like the estimate of an inline plan, but without a request to name in a trail.
    audit: NotPatientData(),
    errors: [
      [
        400,
        {
          errors: {
            rules: {
              '0': {
                frequency: {
                  period: { months: { $: ['A rolling period needs its length in months.'] } },
                },
              },
            },
            history: {
              '1': {
                benefit_code: {
                  $: [
                    "No rule counts services of material.frames: give it a rule, name it in a rule's " +
                      'shared_with, or leave the entry out.',
                  ],
                },
              },
            },
          },
        },
      ],
    ],
    summary: 'When each benefit can be had again',
    description:
      'Stateless: frequency rules, the services on record and the plan term in; per rule, the ' +
      'first day on or after `as_of` the benefit can be had again, its basis and the sentences ' +
      'that explain it. A `rolling` period counts from the last service (month ends clamped: ' +
      '31 January + 1 month is 28 or 29 February; leap days kept); `calendar_year` resets on ' +
      '1 January; `plan_year` on the anniversary of `plan.begin_date`. With `count` > 1 another ' +
      'service is allowed until `count` of them fall in the period, then once the oldest of the ' +
      '`count` most recent ages out. `shared_with` benefits consume one another. A ' +
      '`payer_next_eligible_date` wins over the computed date (both are named when they differ) ' +
      'unless a service on record is later; a date after `plan.end_date` is said not to be under ' +
      'this plan. Never before the last service. Nothing is stored.',
  })
  @ApiBody({
    type: NextEligibleRequestDto,
    examples: {
      sharedFrames: {
        summary: 'Frames shared with contact lenses, contacts twice a year, a payer-stated exam',
        value: EXAMPLE_NEXT_ELIGIBLE_REQUEST,
      },
    },
  })
  @ApiOkResponse({
    description: 'One answer per rule, in the order of `rules`.',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/NextEligibleResponse' },
        example: EXAMPLE_NEXT_ELIGIBLE_RESPONSE,
      },
    },
  })
  async compute(
    @Req() req: AppRequest,
    @Body() body: NextEligibleRequestDto,
  ): Promise<NextEligibleResponse> {
    return NextEligibleResponse.from(await this.nextEligible.ask(req.auth!.apiKeyId, body));
  }
}
