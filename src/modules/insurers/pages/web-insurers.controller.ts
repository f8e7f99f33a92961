import { Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { insurerName } from '../domain/insurer-codes';
import { type InsurerSetting, InsurerSettingsService } from '../domain/insurer-settings.service';
import {
  auditContextOf,
  AuditService,
  type SecurityAction,
  securityEvent,
  type SecurityResourceType,
} from '@/modules/audit';
import {
  accountOf,
  AdminOnly,
  EmbeddedReach,
  FormPage,
  formFields,
  redirectWith,
  type Typed,
} from '@/modules/web';

const needsLogin = (i: InsurerSetting) => i.usesCredentials || i.eligibility === 'assisted';

/** The insurer whose form was refused (its row or card shows the errors), and why. */
const refusal = ({ form, errors }: Typed) => ({
  errorCode: errors ? (form.insurer_code ?? '') : null,
  errors,
});

/** The insurers an account uses, and the passwords their connections sign in with. */
@PageController('app', AdminOnly())
export class WebInsurersController {
  constructor(
    private readonly insurers: InsurerSettingsService,
    private readonly audit: AuditService,
  ) {}

  /** The insurers; a refused mailing address shows in its row as it was typed. */
  private readonly insurersPage = new FormPage(
    { view: 'insurers.njk', title: 'Insurers', section: 'insurers' },
    async (req, typed) => ({
      insurers: await this.insurers.list(accountOf(req)),
      ...refusal(typed),
      typed: typed.form.claims_mailing_address ?? '',
    }),
  );

  /** The insurers that sign in with a login of the account's; a refused one shows in its card. */
  private readonly passwordsPage = new FormPage(
    { view: 'passwords.njk', title: 'Passwords', section: 'passwords' },
    async (req, typed) => {
      const all = await this.insurers.list(accountOf(req));
      return {
        // Insurers whose connector signs in with the account's own login, and those a person
        // checks (docs/api.md, Insurers and assisted verification: the verifier signs in to the portal with the stored login).
        insurers: all.filter(needsLogin),
        // Logins stored earlier that nothing reads: offered for deletion only.
        unused: all.filter((i) => !needsLogin(i) && i.credentialsSetAt),
        ...refusal(typed),
      };
    },
  );

  /** Each change of who checks an insurer, or of the login it signs in with, is in the trail. */
  private record(
    req: Request,
    type: SecurityResourceType,
    action: SecurityAction,
    code: string,
  ): Promise<void> {
    return this.audit.record(securityEvent(auditContextOf(req)!, type, action, code));
  }

  @PageRead('insurers', { reach: EmbeddedReach('insurers') })
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.insurersPage.show(req, res, {});
  }

  /** The account's claims mailing address for one insurer (docs/api.md, Errors); blank: the table's. */
  @PageWrite('insurers/mailing-address', { reach: EmbeddedReach('insurers') })
  async setMailingAddress(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.insurersPage.post(req, res, {}, async (form) => {
      const code = form.insurer_code ?? '';
      await this.insurers.setClaimsMailing(accountOf(req), code, form.claims_mailing_address ?? '');
      redirectWith(
        req,
        res,
        '/app/insurers/',
        `Claims mailing address of ${insurerName(code)} saved.`,
      );
    });
  }

  @PageWrite('insurers/toggle', { reach: EmbeddedReach('insurers') })
  async toggle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const enabled = form.enabled === 'true';
    await this.insurers.setEnabled(accountOf(req), form.insurer_code ?? '', enabled);
    await this.record(req, 'insurer', enabled ? 'enable' : 'disable', form.insurer_code ?? '');
    redirectWith(
      req,
      res,
      '/app/insurers/',
      `${insurerName(form.insurer_code ?? '')} ${enabled ? 'switched on' : 'switched off'}.`,
    );
  }

  /** docs/api.md, Insurers and assisted verification: checks of an insurer go to a person (`assisted`) or back to its default path. */
  @PageWrite('insurers/eligibility-mode', { reach: EmbeddedReach('insurers') })
  async setEligibilityMode(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const code = form.insurer_code ?? '';
    const mode = form.mode === 'assisted' ? 'assisted' : null;
    await this.insurers.setEligibilityMode(accountOf(req), code, mode);
    await this.record(req, 'assisted_insurer', mode ? 'enable' : 'disable', code);
    redirectWith(
      req,
      res,
      '/app/insurers/',
      `Checks of ${insurerName(code)} ${mode ? 'now go to a person (assisted)' : 'use the default path'}.`,
    );
  }

  @PageRead('passwords', { reach: EmbeddedReach('passwords') })
  async passwords(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.passwordsPage.show(req, res, {});
  }

  /** The service holds the credential rules (no API route sets them); its field errors show here. */
  @PageWrite('passwords', { reach: EmbeddedReach('passwords') })
  async setPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.passwordsPage.post(req, res, {}, async (form) => {
      const code = form.insurer_code ?? '';
      await this.insurers.setCredentials(
        accountOf(req),
        code,
        form.username ?? '',
        form.password ?? '',
      );
      await this.record(req, 'insurer_credentials', 'change', code);
      redirectWith(req, res, '/app/passwords/', 'Password saved.');
    });
  }

  @PageWrite('passwords/delete', { reach: EmbeddedReach('passwords') })
  async deletePassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    const code = formFields(req.body).insurer_code ?? '';
    await this.insurers.deleteCredentials(accountOf(req), code);
    await this.record(req, 'insurer_credentials', 'delete', code);
    redirectWith(req, res, '/app/passwords/', 'Password deleted.');
  }
}
