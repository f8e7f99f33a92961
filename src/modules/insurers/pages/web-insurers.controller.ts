import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { insurerName } from '../insurer-codes';
import { type InsurerSetting, InsurerSettingsService } from '../insurer-settings.service';
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
  formFields,
  redirectWith,
  renderPage,
  submitForm,
} from '@/modules/web';

const needsLogin = (i: InsurerSetting) => i.usesCredentials || i.eligibility === 'assisted';

/** The insurers an account uses, and the passwords their connections sign in with. */
@ApiExcludeController()
@AdminOnly()
@Controller('app')
export class WebInsurersController {
  constructor(
    private readonly insurers: InsurerSettingsService,
    private readonly audit: AuditService,
  ) {}

  /** Each change of who checks an insurer, or of the login it signs in with, is in the trail. */
  private record(
    req: Request,
    type: SecurityResourceType,
    action: SecurityAction,
    code: string,
  ): Promise<void> {
    return this.audit.record(securityEvent(auditContextOf(req)!, type, action, code));
  }

  @Get('insurers')
  @EmbeddedReach('insurers')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderInsurers(req, res, null, null, '');
  }

  /** The account's claims mailing address for one insurer (docs/api.md, Errors); blank: the table's. */
  @Post('insurers/mailing-address')
  @EmbeddedReach('insurers')
  async setMailingAddress(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const code = form.insurer_code ?? '';
    await submitForm(
      res,
      async () => {
        await this.insurers.setClaimsMailing(
          accountOf(req),
          code,
          form.claims_mailing_address ?? '',
        );
        redirectWith(
          req,
          res,
          '/app/insurers/',
          `Claims mailing address of ${insurerName(code)} saved.`,
        );
      },
      (errors) => this.renderInsurers(req, res, code, errors, form.claims_mailing_address ?? ''),
    );
  }

  /** `errorCode` is the insurer whose mailing address was refused: its row shows the errors. */
  private async renderInsurers(
    req: Request,
    res: Response,
    errorCode: string | null,
    errors: ErrorTree | null,
    typed: string,
  ): Promise<void> {
    const insurers = await this.insurers.list(accountOf(req));
    renderPage(req, res, 'insurers.njk', {
      title: 'Insurers',
      section: 'insurers',
      insurers,
      errorCode,
      errors,
      typed,
    });
  }

  @Post('insurers/toggle')
  @EmbeddedReach('insurers')
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
  @Post('insurers/eligibility-mode')
  @EmbeddedReach('insurers')
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

  @Get('passwords')
  @EmbeddedReach('passwords')
  async passwords(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderPasswords(req, res, null, null);
  }

  /** The service holds the credential rules (no API route sets them); its field errors show here. */
  @Post('passwords')
  @EmbeddedReach('passwords')
  async setPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const code = form.insurer_code ?? '';
    await submitForm(
      res,
      async () => {
        await this.insurers.setCredentials(
          accountOf(req),
          code,
          form.username ?? '',
          form.password ?? '',
        );
        await this.record(req, 'insurer_credentials', 'change', code);
        redirectWith(req, res, '/app/passwords/', 'Password saved.');
      },
      (errors) => this.renderPasswords(req, res, code, errors),
    );
  }

  @Post('passwords/delete')
  @EmbeddedReach('passwords')
  async deletePassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    const code = formFields(req.body).insurer_code ?? '';
    await this.insurers.deleteCredentials(accountOf(req), code);
    await this.record(req, 'insurer_credentials', 'delete', code);
    redirectWith(req, res, '/app/passwords/', 'Password deleted.');
  }

  /** `errorCode` is the insurer whose form was refused: its card shows the errors. */
  private async renderPasswords(
    req: Request,
    res: Response,
    errorCode: string | null,
    errors: ErrorTree | null,
  ): Promise<void> {
    const all = await this.insurers.list(accountOf(req));
    renderPage(req, res, 'passwords.njk', {
      title: 'Passwords',
      section: 'passwords',
      // Insurers whose connector signs in with the account's own login, and those a person
      // checks (docs/api.md, Insurers and assisted verification: the verifier signs in to the portal with the stored login).
      insurers: all.filter(needsLogin),
      // Logins stored earlier that nothing reads: offered for deletion only.
      unused: all.filter((i) => !needsLogin(i) && i.credentialsSetAt),
      errorCode,
      errors,
    });
  }
}
