import { Body, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, ApiRoute } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { NotPatientData } from '@/modules/audit';
import { AppointmentPolicies } from '../domain/appointment-policies.service';
import { AppointmentPolicyDto, AppointmentPolicyResponse } from './dto/appointment-policy.dto';

/** docs/api.md, Appointments: the account's appointment policy. No patient data. */
@ApiController('Appointments', 'api/auth/v1/appointment-policy')
export class AppointmentPolicyController {
  constructor(private readonly policies: AppointmentPolicies) {}

  @ApiRead('', {
    scope: 'appointments:read',
    audit: NotPatientData(),
    summary: 'The appointment policy',
    description:
      "When the account's appointments have their coverage checked. The defaults until the " +
      'account stores one: `{"on_booking": true, "days_before": [3], "hours_before": [24], ' +
      '"freshness_hours": 48, "statuses": ["booked", "arrived"]}`.',
    answer: AppointmentPolicyResponse,
  })
  get(@Req() req: AppRequest): Promise<AppointmentPolicyResponse> {
    return this.policies.get(req.auth!.accountId);
  }

  @ApiRoute('put', '', 200, {
    scope: 'appointments:write',
    audit: NotPatientData(),
    summary: 'Replace the appointment policy',
    description:
      'Every field is required. `days_before`: up to 5 values, 0–30; `hours_before`: up to 5 ' +
      'values, 1–72; `freshness_hours`: 1–720; `statuses`: some of the five statuses.',
    answer: AppointmentPolicyResponse,
    errors: [
      [
        400,
        {
          errors: {
            days_before: { '0': { $: ['Ensure this value is less than or equal to 30.'] } },
          },
        },
      ],
    ],
  })
  put(
    @Req() req: AppRequest,
    @Body() body: AppointmentPolicyDto,
  ): Promise<AppointmentPolicyResponse> {
    return this.policies.put(req.auth!.accountId, body);
  }
}
