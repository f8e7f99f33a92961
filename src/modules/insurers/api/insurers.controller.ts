import { Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiController } from '@/platform/http/api-controller';
import { ApiNoETag } from '@/platform/http/api-document-details';
import { ApiRead } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { NotPatientData } from '@/modules/audit';
import { InsurerDirectoryResponse } from './dto/insurer-directory.response';
import { InsurerHealthResponse } from './dto/insurer-health.response';
import { type DirectoryEntry, InsurerDirectory } from '../domain/insurer-directory.service';
import { InsurerHealth } from '../domain/insurer-health.service';

@ApiController('Insurers', 'api/auth/v1/insurers')
export class InsurersController {
  constructor(
    private readonly directory: InsurerDirectory,
    private readonly insurerHealth: InsurerHealth,
  ) {}

  @ApiRead('', {
    scope: 'eligibility:read',
    audit: NotPatientData(),
    summary: 'The insurer directory',
    description:
      'Every insurer code with how this account reaches it (docs/api.md, Insurers and assisted verification): `eligibility` `sandbox`, `x12` ' +
      '(a 270/271 through the clearinghouse), `assisted` (a person checks the payer’s portal or phone line: the ' +
      'search waits for a verification task) or `none`; claims by 837P or paper, claim status by 276 or reports, ' +
      '835 remittances, the payer ids used, and the health of the stored portal credentials. ' +
      'Assisted insurers add the account’s open verification tasks (`tasks_open`) and the median ' +
      'minutes to answer one over the last 30 days (`median_minutes_to_answer`, null when none).',
    answer: InsurerDirectoryResponse,
  })
  async list(@Req() req: AppRequest): Promise<{ result: DirectoryEntry[] }> {
    return { result: await this.directory.list(req.auth!.accountId) };
  }

  @ApiRead('health', {
    scope: 'eligibility:read',
    audit: NotPatientData(),
    summary: 'Insurer health',
    description:
      'Per insurer of the directory, this account’s calls of the last hour (docs/api.md, Insurer ' +
      'health): eligibility requests and calls, the share the insurer answered, the median and ' +
      '95th percentile seconds, and the latest unanswered call’s kind and time (never its words). ' +
      'Insurers without a call are listed with zeros and nulls.',
    answer: InsurerHealthResponse,
  })
  @ApiNoETag()
  async health(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    const body = JSON.stringify(await this.insurerHealth.forAccount(req.auth!.accountId));
    // A measurement as of now (`as_of`): no two answers are alike, so no ETag and never a 304.
    // Written directly: Express's send would hash the body for an ETag.
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }
}
