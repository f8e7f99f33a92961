import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { ValidationFailed } from '@/platform/kernel/errors';
import { PasswordHashBusy } from '@/platform/kernel/passwords';
import { type UserSummary, WrongCurrentPassword } from '@/modules/accounts';
import { auditContextOf } from '@/modules/audit';
import { ChangePasswordDto } from './dto/users.dto';
import { clearSessionCookie } from '../session-cookie';
import { SignInThrottle } from '../sign-in-throttle';
import { FormPage } from '../form-page';
import { bindForm } from '../forms';
import { UserAccessService } from '../user-access.service';
import { flash, redirectWith, webUser } from '../web-context';
import { WebSessions } from '../web-sessions';

const TOO_MANY = {
  current_password: { $: ['Too many wrong current passwords. Try again in 15 minutes.'] },
};

/**
 * The signed-in user's own sign-in (SECURITY.md): change the password (the current one
 * required; the user's other sessions end), see the open sessions and end them.
 */
@PageController('app/account')
export class WebAccountController {
  constructor(
    private readonly access: UserAccessService,
    private readonly sessions: WebSessions,
    private readonly throttle: SignInThrottle,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The password form (`errors` when refused) and the user's open sessions. */
  private readonly page = new FormPage(
    { view: 'account.njk', title: 'Your account', section: 'account' },
    async (req, { errors }) => ({
      sessions: await this.sessions.list(webUser(req)!.userId, req.sessionID),
      errors,
    }),
  );

  @PageRead()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  /**
   * Current passwords are counted per user before they are checked, as sign-ins are
   * (SignInThrottle): five wrong ones in 15 minutes and the form answers 429 unchecked, so a
   * session left open cannot be used to guess the password it was opened with.
   */
  @PageWrite('password')
  async changePassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, {}, async (form) => {
      const body = await bindForm(ChangePasswordDto, form, { keepBlank: true });
      if (body.new_password !== body.new_password_confirmation)
        throw ValidationFailed.field('new_password_confirmation', 'The two passwords differ.');
      const ctx = auditContextOf(req)!;
      const subject = { passwordOf: ctx.actor.userId! };
      const tooMany = async () => {
        res.status(429);
        await this.page.show(req, res, {}, { form, errors: TOO_MANY });
      };
      const attempt = await this.throttle.begin(subject, req.ip);
      if (attempt.refused) return tooMany();
      let user: UserSummary;
      try {
        user = await this.access.changePassword(
          ctx,
          body.current_password,
          body.new_password,
          req.sessionID,
        );
      } catch (e) {
        // Every hashing slot was taken: not checked, so not counted.
        if (e instanceof PasswordHashBusy) await this.throttle.withdraw(subject, req.ip);
        if (e instanceof WrongCurrentPassword && attempt.ipOverLimit) return tooMany();
        throw e;
      }
      await this.throttle.succeeded(subject, req.ip);
      // This session stays signed in under the new epoch; every other one has ended.
      req.session.sessionEpoch = user.sessionEpoch;
      redirectWith(
        req,
        res,
        '/app/account/',
        'Password changed. Your other sessions have been signed out.',
      );
    });
  }

  @PageWrite('sessions/:handle/end')
  async endOne(
    @Req() req: Request,
    @Res() res: Response,
    @Param('handle') handle: string,
  ): Promise<void> {
    const ended = await this.access.endSession(auditContextOf(req)!, handle);
    flash(
      req,
      ended ? 'ok' : 'error',
      ended ? 'Session ended.' : 'That session had already ended.',
    );
    res.redirect('/app/account/');
  }

  /** "Sign out everywhere", this browser included. */
  @PageWrite('sessions/end-all')
  async endAll(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.access.endAllSessions(auditContextOf(req)!);
    req.session.destroy(() => {
      clearSessionCookie(res, this.config.publicUrl);
      res.redirect('/app/login');
    });
  }
}
