import { Injectable, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import QRCode from 'qrcode';
import { ValidationFailed } from '@/platform/kernel/errors';
import { TwoFactorService } from '@/modules/accounts';
import { auditContextOf, AuditService, securityEvent } from '@/modules/audit';
import { TwoFactorCodeDto, TwoFactorRequirementDto } from './dto/two-factor.dto';
import { FormPage } from '../form-page';
import { bindForm } from '../forms';
import { SignInThrottle } from '../sign-in-throttle';
import { accountOf, redirectWith, renderPage, signedInUser } from '../web-context';
import { AdminOnly } from '../web-roles';

const WRONG_CODE = 'The code is not right.';
const TOO_MANY = 'Too many wrong codes. Try again in 15 minutes.';

/** The enrolment QR code: a PNG data: URL (the pages' CSP allows `img-src data:`). */
export function qrDataUrl(otpauthUri: string): Promise<string> {
  return QRCode.toDataURL(otpauthUri, { width: 220, margin: 2, errorCorrectionLevel: 'M' });
}

const userIdOf = (req: Request) => signedInUser(req).userId;

/** What both two-factor pages need: the service, and the code form step with its throttle. */
@Injectable()
abstract class TwoFactorPages {
  constructor(
    protected readonly twoFactor: TwoFactorService,
    private readonly throttle: SignInThrottle,
    protected readonly audit: AuditService,
  ) {}

  /**
   * A code form's submission. Codes typed into the settings forms count towards the same
   * throttle as the sign-in step, so these forms cannot be used to guess codes either: while the
   * user is blocked, or past the limit once the attempt is counted (SignInThrottle.begin, before
   * the code is checked), the form comes back with 429 and the code unseen. A wrong code is a
   * field error and a `two_factor` `fail` event in the audit trail; a right one runs `then` with
   * what the check gave. `page` is the form's page, shown again when the code is refused.
   */
  protected async submitCode<T>(
    req: Request,
    res: Response,
    page: FormPage,
    check: (code: string) => Promise<T | null | false>,
    then: (result: T) => Promise<void>,
  ): Promise<void> {
    const subject = { userId: userIdOf(req) };
    const tooMany = async () => {
      res.status(429);
      await page.show(req, res, {}, { form: {}, errors: { code: { $: [TOO_MANY] } } });
    };
    if (await this.throttle.isBlocked(subject)) return tooMany();
    await page.post(req, res, {}, async (fields) => {
      const form = await bindForm(TwoFactorCodeDto, { code: fields.code });
      const attempt = await this.throttle.begin(subject, req.ip);
      if (attempt.refused) return tooMany();
      const result = await check(form.code);
      if (result === null || result === false) {
        await this.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'fail', null));
        if (attempt.ipOverLimit) return tooMany();
        throw ValidationFailed.field('code', WRONG_CODE);
      }
      await this.throttle.succeeded(subject, req.ip);
      await then(result);
    });
  }
}

/**
 * The signed-in user's two-factor sign-in (status, turn off) and the account's requirement.
 * Behind the two-factor gate: a user the requirement sends to enrolment cannot turn it off here.
 */
@PageController('app/two-factor')
export class WebTwoFactorController extends TwoFactorPages {
  /** The user's status and the account's requirement; `errors` are a refused form's. */
  private readonly page = new FormPage(
    { view: 'two-factor.njk', title: 'Two-factor sign-in', section: 'two-factor' },
    async (req, { errors }) => ({ status: await this.twoFactor.status(userIdOf(req)), errors }),
  );

  @PageRead()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  @PageWrite('disable')
  async disable(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.submitCode(
      req,
      res,
      this.page,
      (code) => this.twoFactor.disable(userIdOf(req), code),
      async () => {
        await this.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'disable', null));
        redirectWith(req, res, '/app/two-factor/', 'Two-factor sign-in is off.');
      },
    );
  }

  @AdminOnly()
  @PageWrite('requirement')
  async requirement(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, {}, async (fields) => {
      const form = await bindForm(TwoFactorRequirementDto, {
        require_two_factor: fields.require_two_factor === 'true',
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
    });
  }
}

/**
 * Enrolment: the QR code and the secret in text, confirmed with a code before two-factor is on;
 * then the recovery codes, shown once. Not behind the gate (it is where the gate sends users).
 */
@PageController('app/two-factor/enrol')
export class WebTwoFactorEnrolController extends TwoFactorPages {
  /** The QR code and the secret of a new enrolment; `errors` are the confirming code's. */
  private readonly page = new FormPage(
    { view: 'two-factor-enrol.njk', title: 'Set up two-factor sign-in', section: 'two-factor' },
    async (req, { errors }) => {
      const userId = userIdOf(req);
      const [{ secret, uri }, { required }] = await Promise.all([
        this.twoFactor.startEnrolment(userId),
        this.twoFactor.state(userId),
      ]);
      return { secret, qr: await qrDataUrl(uri), required, errors };
    },
  );

  @PageRead()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.alreadyOn(req, res)) return;
    await this.page.show(req, res, {});
  }

  @PageWrite()
  async confirm(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.alreadyOn(req, res)) return;
    await this.submitCode(
      req,
      res,
      this.page,
      (code) => this.twoFactor.confirmEnrolment(userIdOf(req), code),
      async (codes) => {
        await this.audit.record(securityEvent(auditContextOf(req)!, 'two_factor', 'enrol', null));
        // Shown once, in this answer only (pages are never cached: Cache-Control no-store).
        res.status(200);
        renderPage(req, res, 'two-factor-codes.njk', {
          title: 'Recovery codes',
          section: 'two-factor',
          codes,
        });
      },
    );
  }

  private async alreadyOn(req: Request, res: Response): Promise<boolean> {
    if (!(await this.twoFactor.state(userIdOf(req))).enabled) return false;
    redirectWith(req, res, '/app/two-factor/', 'Two-factor sign-in is already on.');
    return true;
  }
}
