import { Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { AccountsService } from '@/modules/accounts';
import { auditContextOf, AuditService, securityEvent } from '@/modules/audit';
import { EmbeddingSettingsDto } from './dto/embedding-settings.dto';
import { FormPage } from '../form-page';
import { bindForm } from '../forms';
import { accountOf, redirectWith } from '../web-context';
import { AdminOnly } from '../web-roles';

/** One origin per line of the text area; blank lines are not origins. */
function originsOf(form: Record<string, string>): string[] {
  return (form.frame_ancestors ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Account settings: the origins allowed to embed the application (docs/api.md, Embedded sessions). */
@PageController('app/settings', AdminOnly())
export class WebSettingsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
  ) {}

  /** A refused form shows again as it was sent, with its errors by line. */
  private readonly page = new FormPage(
    { view: 'settings.njk', title: 'Settings', section: 'settings' },
    async (req, { form, errors }) => {
      const account = await this.accounts.getAccount(accountOf(req));
      return {
        account: errors ? { ...account, frameAncestors: originsOf(form) } : account,
        errors,
      };
    },
  );

  @PageRead()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  @PageWrite()
  async save(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, {}, async (form) => {
      const body = await bindForm(EmbeddingSettingsDto, { frame_ancestors: originsOf(form) });
      await this.accounts.updateAccount(accountOf(req), {
        frameAncestors: body.frame_ancestors,
      });
      // Which sites may frame the signed-in application: a security event.
      await this.audit.record(securityEvent(auditContextOf(req)!, 'embedding', 'change', null));
      redirectWith(req, res, '/app/settings/', 'Settings saved.');
    });
  }
}
