import { Logger, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { UsersService } from '@/modules/accounts';
import { userContext } from '@/modules/audit';
import { ForgotPasswordDto, SetPasswordDto } from './dto/users.dto';
import { bindForm, formFields, submitForm } from '../forms';
import { SignInThrottle } from '../sign-in-throttle';
import { UserAccessService } from '../user-access.service';
import { flash, renderPage } from '../web-context';

type Purpose = 'invitation' | 'password_reset';

const PAGES: Record<Purpose, { path: string; title: string; lead: string; done: string }> = {
  invitation: {
    path: '/app/login/invitation',
    title: 'Welcome',
    lead: 'Choose the password you will sign in with.',
    done: 'Your password is set. Sign in with it.',
  },
  password_reset: {
    path: '/app/login/reset',
    title: 'Choose a new password',
    lead: 'Choose a new password. Your sessions elsewhere will be signed out.',
    done: 'Your password was changed. Sign in with the new one.',
  },
};

/** The answer to "forgot password", whether or not the e-mail is known (SECURITY.md). */
export const FORGOT_ANSWER =
  'If a user signs in with that e-mail, a link to choose a new password is on its way. It works once, for one hour.';

const TOO_MANY_RESETS =
  'Too many password links were asked for from this address. Try again in 15 minutes.';

/**
 * Before sign-in (SECURITY.md): "forgot password" mails a single-use link valid one hour, and
 * the links of invitations (72 hours) and resets lead here to set the password. The person then
 * signs in as usual, two-factor included.
 */
@PageController('app/login')
export class WebPasswordController {
  private readonly logger = new Logger(WebPasswordController.name);

  constructor(
    private readonly users: UsersService,
    private readonly access: UserAccessService,
    private readonly throttle: SignInThrottle,
  ) {}

  @PageRead('forgot')
  forgotPage(@Req() req: Request, @Res() res: Response): void {
    renderPage(req, res, 'forgot-password.njk', { title: 'Forgot password', errors: null });
  }

  @PageWrite('forgot')
  async forgot(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(ForgotPasswordDto, { email: form.email });
        const limit = await this.throttle.resetRequest(req.ip);
        if (limit.refused) {
          res.status(429).setHeader('Retry-After', String(limit.retryAfterSeconds));
          return renderPage(req, res, 'forgot-password.njk', {
            title: 'Forgot password',
            errors: { email: { $: [TOO_MANY_RESETS] } },
          });
        }
        // The same answer in the same time whether or not the e-mail is known (SECURITY.md):
        // looking it up, minting the link and queueing the e-mail all happen once it is sent.
        res.once('close', () => {
          this.access.forgotPassword(body.email).catch((e: Error) => {
            this.logger.error({ err: e.message }, 'password reset link not sent');
          });
        });
        res.status(200);
        renderPage(req, res, 'forgot-password.njk', {
          title: 'Forgot password',
          errors: null,
          sent: FORGOT_ANSWER,
        });
      },
      (errors) => renderPage(req, res, 'forgot-password.njk', { title: 'Forgot password', errors }),
    );
  }

  @PageRead('invitation')
  invitationPage(@Req() req: Request, @Res() res: Response, @Query('token') token?: string) {
    return this.page(req, res, 'invitation', token);
  }

  @PageWrite('invitation')
  acceptInvitation(@Req() req: Request, @Res() res: Response) {
    return this.setPassword(req, res, 'invitation');
  }

  @PageRead('reset')
  resetPage(@Req() req: Request, @Res() res: Response, @Query('token') token?: string) {
    return this.page(req, res, 'password_reset', token);
  }

  @PageWrite('reset')
  reset(@Req() req: Request, @Res() res: Response) {
    return this.setPassword(req, res, 'password_reset');
  }

  /** The form, when the link still works (looking does not use it up). */
  private async page(req: Request, res: Response, purpose: Purpose, token?: string) {
    const user = typeof token === 'string' ? await this.users.peekToken(purpose, token) : null;
    if (!user) return this.linkDead(req, res, purpose);
    this.form(req, res, purpose, token!, user.email, null);
  }

  private async setPassword(req: Request, res: Response, purpose: Purpose): Promise<void> {
    const form = formFields(req.body);
    const token = form.token ?? '';
    const user = await this.users.peekToken(purpose, token);
    if (!user) return this.linkDead(req, res, purpose);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(
          SetPasswordDto,
          { password: form.password, password_confirmation: form.password_confirmation },
          { keepBlank: true },
        );
        if (body.password !== body.password_confirmation)
          throw ValidationFailed.field('password_confirmation', 'The two passwords differ.');
        const done = await this.access.redeem(purpose, token, body.password, (user) =>
          userContext(req, user),
        );
        // Used up by a submission that arrived at the same moment.
        if (!done) return this.linkDead(req, res, purpose);
        // A fresh, signed-out session: whoever was signed in in this browser is not any more.
        req.session.regenerate((err) => {
          if (err) return res.redirect('/app/login');
          flash(req, 'ok', PAGES[purpose].done);
          req.session.save(() => res.redirect('/app/login'));
        });
      },
      (errors) => this.form(req, res, purpose, token, user.email, errors),
    );
  }

  private form(
    req: Request,
    res: Response,
    purpose: Purpose,
    token: string,
    email: string,
    errors: ErrorTree | null,
  ): void {
    // The token is in the address: it must not leak to another site or a cache.
    res.setHeader('Referrer-Policy', 'no-referrer');
    renderPage(req, res, 'set-password.njk', {
      title: PAGES[purpose].title,
      page: PAGES[purpose],
      token,
      email,
      errors,
    });
  }

  private linkDead(req: Request, res: Response, purpose: Purpose): void {
    res.status(410);
    renderPage(req, res, 'error.njk', {
      title: 'Link expired',
      heading: 'This link has expired',
      message:
        purpose === 'invitation'
          ? 'Invitation links work once, for 72 hours. Ask an admin of your account to invite you again.'
          : 'Password links work once, for one hour. Ask for a new one from the sign-in page.',
    });
  }
}
