import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { AccountsService } from '@/modules/accounts';
import { auditContextOf, AuditService, securityEvent } from '@/modules/audit';
import { EmbeddingSettingsDto } from './dto/embedding-settings.dto';
import { bindForm, formFields, submitForm } from './forms';
import { accountOf, redirectWith, renderPage } from './web-context';
import { AdminOnly } from './web-roles';

/** Account settings: the origins allowed to embed the application (docs/api.md, Embedded sessions). */
@ApiExcludeController()
@AdminOnly()
@Controller('app/settings')
export class WebSettingsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, null, null);
  }

  @Post()
  async save(@Req() req: Request, @Res() res: Response): Promise<void> {
    // One origin per line of the text area; blank lines are not origins.
    const lines = (formFields(req.body).frame_ancestors ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(EmbeddingSettingsDto, { frame_ancestors: lines });
        await this.accounts.updateAccount(accountOf(req), {
          frameAncestors: body.frame_ancestors,
        });
        // Which sites may frame the signed-in application: a security event.
        await this.audit.record(securityEvent(auditContextOf(req)!, 'embedding', 'change', null));
        redirectWith(req, res, '/app/settings/', 'Settings saved.');
      },
      (errors) => this.render(req, res, lines, errors),
    );
  }

  /** `typed` is what the form sent, shown again (with its errors by line) when refused. */
  private async render(
    req: Request,
    res: Response,
    typed: string[] | null,
    errors: ErrorTree | null,
  ): Promise<void> {
    const account = await this.accounts.getAccount(accountOf(req));
    renderPage(req, res, 'settings.njk', {
      title: 'Settings',
      section: 'settings',
      account: typed ? { ...account, frameAncestors: typed } : account,
      errors,
    });
  }
}
