import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { EligibilityQueryService } from '../domain/eligibility-query.service';
import { accountOf, renderPage } from '@/modules/web';
import { Audited } from '@/modules/audit';

/** The landing page after sign-in: the account's recent eligibility checks. */
@ApiExcludeController()
@Controller('app')
export class WebDashboardController {
  constructor(private readonly eligibility: EligibilityQueryService) {}

  @Get()
  @Audited('eligibility_request', 'list')
  async dashboard(@Req() req: Request, @Res() res: Response): Promise<void> {
    const requests = await this.eligibility.listRecent(accountOf(req), 50);
    renderPage(req, res, 'dashboard.njk', { title: 'Dashboard', section: 'dashboard', requests });
  }
}
