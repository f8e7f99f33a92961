import { Body, Param, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { grants } from '@/platform/http/scopes';
import { Audited } from '@/modules/audit';
import {
  BenefitHistoryEntry,
  BenefitHistoryList,
  CreateBenefitEntryDto,
} from './dto/benefit-history.dto';
import { BenefitHistoryService } from '../domain/benefit-history.service';
import { CODE, NOT_FOUND, READ_ONE } from './patients.controller';

/** docs/api.md, Patients (benefit history): the practice's own record of what a patient had. */
@ApiController('Patients', 'api/auth/v1/patients')
export class BenefitHistoryController {
  constructor(private readonly history: BenefitHistoryService) {}

  @ApiWrite(':code/benefit-history', 201, {
    scope: 'patients:write',
    audit: Audited('patient', 'update', 'param:code'),
    summary: 'Record a service the patient had',
    description:
      'A benefit of an insurer used on a day (the frames bought elsewhere, an exam before the ' +
      'practice used the service): a finishing search of the patient counts it toward the next ' +
      'eligible date of benefits with a frequency (docs/api.md, Next eligible dates). The same ' +
      'insurer, benefit and day again replaces the note.',
    param: CODE,
    answer: BenefitHistoryEntry,
    errors: [
      [
        400,
        {
          errors: {
            insurer_code: { $: ['Unknown insurer code: insurer:vision:nope.'] },
            benefit_code: { $: ['"frames" is not a valid choice.'] },
            date: { $: ['Date may not be in the future.'] },
          },
        },
      ],
      NOT_FOUND,
    ],
  })
  add(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: CreateBenefitEntryDto,
  ): Promise<BenefitHistoryEntry> {
    return this.history.add(req.auth!.accountId, code, body);
  }

  @ApiRead(':code/benefit-history', {
    ...READ_ONE,
    summary: "The patient's benefit history, with its sources",
    description:
      'Staff entries, and the services of claims the practice filed through the service whose ' +
      "patient has the record's names and date of birth (`remittance` once the 835 paid the " +
      'line), the most recent service first. Claim-sourced entries (they carry claim codes) are ' +
      'answered only to a key holding `claims:read`; to others the list holds the staff entries ' +
      'alone.',
    answer: BenefitHistoryList,
  })
  async list(@Req() req: AppRequest, @Param('code') code: string): Promise<BenefitHistoryList> {
    const withClaims = grants(req.auth!.scopes, 'claims:read');
    return { result: await this.history.list(req.auth!.accountId, code, withClaims) };
  }
}
