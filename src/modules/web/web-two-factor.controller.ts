import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import QRCode from 'qrcode';
import { type ErrorTree, ValidationFailed } from '@/common/errors';
import { TwoFactorService } from '@/modules/accounts';
import { auditContextOf, AuditService, securityEvent } from '@/modules/audit';
import { TwoFactorCodeDto, TwoFactorRequirementDto } from './dto/two-factor.dto';
import { bindForm, formFields, submitForm } from './forms';
import { SignInThrottle } from './sign-in-throttle';
import { accountOf, redirectWith, renderPage, webUser } from './web-context';
import { AdminOnly } from './web-roles';

const WRONG_CODE = 'The code is not right.';
const TOO_MANY = 'Too many wrong codes. Try again in 15 minutes.';

/** The enrolment QR code: a PNG data: URL (the pages' CSP allows `img-src data:`). */
export function qrDataUrl(otpauthUri: string): Promise<string> {
  return QRCode.toDataURL(otpauthUri, { width: 220, margin: 2, errorCorrectionLevel: 'M' });
}

function userIdOf(req: Request): string {
  const user = webUser(req);
  if (!user) throw new Error('A signed-in page was served without a signed-in user.');
  return user.userId;
}

/**
 * Codes typed into the settings forms count towards the same throttle as the sign-in step, so
 * these forms cannot be used to guess codes either. Answers 429 with the form when blocked.
 */
async function refuseWhenThrottled(
  req: Request,
  res: Response,
  throttle: SignInThrottle,
  rerender: (errors: ErrorTree) => Promise<void>,
): Promise<boolean> {
  if (!(await throttle.isBlocked({ userId: userIdOf(req) }))) return false;
  res.status(429);
  await rerender({ code: { $: [TOO_MANY] } });
  return true;
}

/**
 * Binds the code form and checks it, counted before it is checked (SignInThrottle.begin): past
 * the limit the code is refused unseen with 429 (null). A wrong code is a field error and a
 * `two_factor` `fail` event in the audit trail.
 */
async function checkCode<T>(
  req: Request,
  res: Response,
  deps: { throttle: SignInThrottle; audit: AuditService },
  check: (code: string) => Promise<T | null | false>,
  rerender: (errors: ErrorTree) => Promise<void>,
): Promise<T | null> {
  const subject = { userId: userIdOf(req) };
  const form = await bindForm(TwoFactorCodeDto, { code: formFields(req.body).code });
  const attempt = await deps.throttle.begin(subject, req.ip);
  const tooMany = async () => {
    res.status(429);
    await rerender({ code: { $: [TOO_MANY] } });
    return null;
  };
  if (attempt.refused) return tooMany();
  const result = await check(form.code);
  if (result === null || result === false) {
    await deps.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'fail', null));
    if (attempt.ipOverLimit) return tooMany();
    throw ValidationFailed.field('code', WRONG_CODE);
  }
  await deps.throttle.succeeded(subject, req.ip);
  return result;
}

/**
 * The signed-in user's two-factor sign-in (status, turn off) and the account's requirement.
 * Behind the two-factor gate: a user the requirement sends to enrolment cannot turn it off here.
 */
@ApiExcludeController()
@Controller('app/two-factor')
export class WebTwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    readonly throttle: SignInThrottle,
    readonly audit: AuditService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, null);
  }

  @Post('disable')
  async disable(@Req() req: Request, @Res() res: Response): Promise<void> {
    const rerender = (errors: ErrorTree) => this.render(req, res, errors);
    if (await refuseWhenThrottled(req, res, this.throttle, rerender)) return;
    await submitForm(
      res,
      async () => {
        const done = await checkCode(
          req,
          res,
          this,
          (code) => this.twoFactor.disable(userIdOf(req), code),
          rerender,
        );
        if (done === null) return;
        await this.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'disable', null));
        redirectWith(req, res, '/app/two-factor/', 'Two-factor sign-in is off.');
      },
      rerender,
    );
  }

  @AdminOnly()
  @Post('requirement')
  async requirement(@Req() req: Request, @Res() res: Response): Promise<void> {
    await submitForm(
      res,
      async () => {
        const form = await bindForm(TwoFactorRequirementDto, {
          require_two_factor: formFields(req.body).require_two_factor === 'true',
        });
        await this.twoFactor.setRequired(accountOf(req), userIdOf(req), form.require_two_factor);
        await this.audit.record(
          securityEvent(
            auditContextOf(req)!,
            'two_factor_requirement',
            form.require_two_factor ? 'enable' : 'disable',
            null,
          ),
        );
        redirectWith(
          req,
          res,
          '/app/two-factor/',
          form.require_two_factor
            ? 'Two-factor sign-in is now required of every user of the account.'
            : 'Two-factor sign-in is no longer required.',
        );
      },
      (errors) => this.render(req, res, errors),
    );
  }

  private async render(req: Request, res: Response, errors: ErrorTree | null): Promise<void> {
    const status = await this.twoFactor.status(userIdOf(req));
    renderPage(req, res, 'two-factor.njk', {
      title: 'Two-factor sign-in',
      section: 'two-factor',
      status,
      errors,
    });
  }
}

/**
 * Enrolment: the QR code and the secret in text, confirmed with a code before two-factor is on;
 * then the recovery codes, shown once. Not behind the gate (it is where the gate sends users).
 */
@ApiExcludeController()
@Controller('app/two-factor/enrol')
export class WebTwoFactorEnrolController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    readonly throttle: SignInThrottle,
    readonly audit: AuditService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.alreadyOn(req, res)) return;
    await this.render(req, res, null);
  }

  @Post()
  async confirm(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.alreadyOn(req, res)) return;
    const rerender = (errors: ErrorTree) => this.render(req, res, errors);
    if (await refuseWhenThrottled(req, res, this.throttle, rerender)) return;
    await submitForm(
      res,
      async () => {
        const codes = await checkCode(
          req,
          res,
          this,
          (code) => this.twoFactor.confirmEnrolment(userIdOf(req), code),
          rerender,
        );
        if (codes === null) return;
        await this.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'enrol', null));
        // Shown once, in this answer only (pages are never cached: Cache-Control no-store).
        res.status(200);
        renderPage(req, res, 'two-factor-codes.njk', {
          title: 'Recovery codes',
          section: 'two-factor',
          codes,
        });
      },
      rerender,
    );
  }

  private async alreadyOn(req: Request, res: Response): Promise<boolean> {
    if (!(await this.twoFactor.state(userIdOf(req))).enabled) return false;
    redirectWith(req, res, '/app/two-factor/', 'Two-factor sign-in is already on.');
    return true;
  }

  private async render(req: Request, res: Response, errors: ErrorTree | null): Promise<void> {
    const userId = userIdOf(req);
    const [{ secret, uri }, { required }] = await Promise.all([
      this.twoFactor.startEnrolment(userId),
      this.twoFactor.state(userId),
    ]);
    renderPage(req, res, 'two-factor-enrol.njk', {
      title: 'Set up two-factor sign-in',
      section: 'two-factor',
      secret,
      qr: await qrDataUrl(uri),
      required,
      errors,
    });
  }
}
