import { Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiController } from '@/platform/http/api-controller';
import { ApiNoETag } from '@/platform/http/api-document-details';
import { ApiRead } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import { EligibilitySnapshots } from '../read/domain/snapshot/eligibility-snapshots.service';
import { SnapshotQuery } from './dto/snapshot.query';

/** The eligibility snapshot (docs/api.md, Eligibility): a check printed as a PDF to file. */
@ApiController('Eligibility', 'api/auth')
export class SnapshotController {
  constructor(private readonly snapshots: EligibilitySnapshots) {}

  @ApiRead('v2/eligibility/:request_uid/pdf', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_request', 'read', 'param:request_uid'),
    summary: 'Eligibility snapshot (PDF)',
    description:
      "One check printed for a person to read and file: the practice (the location's name and " +
      'NPI), the patient, the insurer and plan (name, group, dates), the member id, when it was ' +
      'checked and how (the X12 control numbers of the 270 and 271 when a clearinghouse ' +
      "answered; the verifier's evidence for an assisted answer), its status, a benefit table " +
      '(copay, allowance, frequency, last service, next eligible date with its basis) and the ' +
      "insurers' errors when any failed. `result_id` and `person_id` choose the plan printed; " +
      'without both, the check is printed as a whole. Each download is an audit event.',
    param: { name: 'request_uid', type: String },
    errors: [
      [400, { errors: { person_id: { $: ['A valid integer is required.'] } } }],
      [
        404,
        { detail: 'Person 98 is not in result 41 of eligibility request visit-2026-11-21-0042.' },
      ],
    ],
  })
  @ApiNoETag()
  @ApiOkResponse({
    description:
      'The snapshot: US Letter, the benefit table going on over as many pages as it needs.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  async pdf(
    @Req() req: AppRequest,
    @Param('request_uid') uid: string,
    @Query() query: SnapshotQuery,
    @Res() res: Response,
  ): Promise<void> {
    const { filename, pdf } = await this.snapshots.pdf(req.auth!.accountId, uid, query);
    // Printed anew at each download (the time is on every page): no ETag, never a 304. Written
    // in one `res.end` (not streamed), which the audit trail holds until its event is stored.
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Length', pdf.length);
    res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
    res.end(pdf);
  }
}
