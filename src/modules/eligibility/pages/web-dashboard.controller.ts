import { Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import { EligibilityQueryService } from '../read/domain/eligibility-query.service';
import { accountOf, renderPage } from '@/modules/web';
import { Audited } from '@/modules/audit';

/** The landing page after sign-in: the account's recent eligibility checks. */
@PageController('app')
export class WebDashboardController {
  constructor(private readonly eligibility: EligibilityQueryService) {}

  @PageRead('', { audit: Audited('eligibility_request', 'list') })
  async dashboard(@Req() req: Request, @Res() res: Response): Promise<void> {
    const requests = await this.eligibility.listRecent(accountOf(req), 50);
    renderPage(req, res, 'dashboard.njk', { title: 'Dashboard', section: 'dashboard', requests });
  }
}
