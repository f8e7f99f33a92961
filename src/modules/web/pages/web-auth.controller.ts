import { Logger, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { PasswordHashBusy } from '@/platform/kernel/passwords';
import { AccountsService, TwoFactorService, type User } from '@/modules/accounts';
import { auditContextOf, AuditService, securityEvent, userContext } from '@/modules/audit';
import { IframeSessionService } from '@/modules/iframe-session';
import { TwoFactorCodeDto } from './dto/two-factor.dto';
import { EMBEDDED_SESSION_MS, EmbeddedReach, entryOf } from '../embedded-session';
import { clearSessionCookie, framedSessionCookie } from '../session-cookie';
import { bindForm, formFields, submitForm } from '../forms';
import { SignInThrottle } from '../sign-in-throttle';
import { ENROL_PATH } from '../two-factor-gate';
import { csrfToken, flash, renderPage, safeNext, webUser } from '../web-context';
import { openSession } from '../web-sessions';

/** How long the code step may follow the password. */
const CODE_STEP_MS = 5 * 60 * 1000;

/** Sign-in (password, then the two-factor code when on), sign-out and the embedded landing. */
@PageController('', EmbeddedReach('any'))
export class WebAuthController {
  private readonly logger = new Logger(WebAuthController.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
    private readonly iframe: IframeSessionService,
    private readonly throttle: SignInThrottle,
    private readonly audit: AuditService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @PageRead('app/login')
  loginPage(@Req() req: Request, @Res() res: Response, @Query('next') next?: string): void {
    // An embedded session is not a full sign-in: its browser may still sign in with the password.
    if (webUser(req) && !req.session.embedded) return res.redirect(safeNext(next));
    renderPage(req, res, 'login.njk', { title: 'Sign in', next: safeNext(next), email: '' });
  }

  @PageWrite('app/login')
  async login(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const email = (form.email ?? '').trim().toLowerCase();
    const next = safeNext(form.next);
    const refuse = (status: number, error: string) => {
      res.status(status);
      renderPage(req, res, 'login.njk', { title: 'Sign in', next, email, error });
    };
    const tooMany = 'Too many failed sign-in attempts. Try again in 15 minutes.';
    // Counted before the password is checked (SECURITY.md): parallel guesses cannot pass the limit.
    const attempt = await this.throttle.begin({ email }, req.ip);
    if (attempt.refused) return refuse(429, tooMany);
    let user: User | null = null;
    try {
      if (email && form.password)
        user = await this.accounts.verifyCredentials(email, form.password);
    } catch (e) {
      if (!(e instanceof PasswordHashBusy)) throw e;
      // Every hashing slot is taken (a burst of sign-ins): not checked, so not counted.
      await this.throttle.withdraw({ email }, req.ip);
      res.setHeader('Retry-After', String(e.retryAfterSeconds));
      return refuse(429, e.message);
    }
    if (!user) {
      await this.recordFailedSignIn(req, email);
      // The IP's count alone never refuses the right password, only wrong ones.
      return attempt.ipOverLimit
        ? refuse(429, tooMany)
        : refuse(401, 'The e-mail or password is not right.');
    }
    await this.throttle.succeeded({ email }, req.ip);
    const { enabled, required } = await this.twoFactor.state(user.id);
    // A fresh session id on sign-in (no session fixation), and again after the code.
    req.session.regenerate((err) => {
      if (err) return refuse(503, 'Sign-in is briefly unavailable. Try again.');
      if (enabled) {
        req.session.twoFactorPending = { userId: user.id, next, until: Date.now() + CODE_STEP_MS };
        csrfToken(req);
        return req.session.save(() => res.redirect('/app/login/code'));
      }
      this.signIn(req, user);
      this.recordSignIn(req, user).then(
        () => req.session.save(() => res.redirect(required ? ENROL_PATH : next)),
        () => refuse(503, 'Sign-in is briefly unavailable. Try again.'),
      );
    });
  }

  /** A wrong password for an existing user is a security event of that user's account. */
  private async recordFailedSignIn(req: Request, email: string): Promise<void> {
    const user = email ? await this.accounts.findUserByEmail(email) : null;
    if (!user) return;
    await this.audit.record(
      securityEvent(userContext(req, user), 'session', 'sign_in_failed', null),
    );
  }

  private recordSignIn(req: Request, user: User): Promise<void> {
    return this.audit.record(securityEvent(userContext(req, user), 'session', 'sign_in', null));
  }

  /** The second step: a code from the authenticator app, or a recovery code. */
  @PageRead('app/login/code')
  codePage(@Req() req: Request, @Res() res: Response): void {
    if (!this.pending(req)) return res.redirect('/app/login');
    renderPage(req, res, 'login-code.njk', { title: 'Two-factor sign-in', errors: null });
  }

  @PageWrite('app/login/code')
  async code(@Req() req: Request, @Res() res: Response): Promise<void> {
    const pending = this.pending(req);
    if (!pending) return res.redirect('/app/login');
    const refuse = (status: number, message: string) => {
      res.status(status);
      renderPage(req, res, 'login-code.njk', {
        title: 'Two-factor sign-in',
        errors: { code: { $: [message] } },
      });
    };
    const subject = { userId: pending.userId };
    const tooMany = 'Too many wrong codes. Try again in 15 minutes.';
    if (await this.throttle.isBlocked(subject)) return refuse(429, tooMany);
    await submitForm(
      res,
      async () => {
        const form = await bindForm(TwoFactorCodeDto, { code: formFields(req.body).code });
        const attempt = await this.throttle.begin(subject, req.ip);
        if (attempt.refused) return refuse(429, tooMany);
        const kind = await this.twoFactor.verifyCode(pending.userId, form.code);
        const user = await this.accounts.findUserById(pending.userId);
        if (!user) return res.redirect('/app/login');
        if (!kind) {
          await this.audit.record(
            securityEvent(userContext(req, user), 'two_factor', 'fail', null),
          );
          return attempt.ipOverLimit ? refuse(429, tooMany) : refuse(401, 'The code is not right.');
        }
        await this.throttle.succeeded(subject, req.ip);
        await this.recordSignIn(req, user);
        await this.completeSignIn(req, res, user, pending.next, kind === 'recovery');
      },
      (errors) => renderPage(req, res, 'login-code.njk', { title: 'Two-factor sign-in', errors }),
    );
  }

  @PageWrite('app/logout')
  logout(@Req() req: Request, @Res() res: Response): void {
    req.session.destroy(() => {
      clearSessionCookie(res, this.config.publicUrl);
      res.redirect('/app/login');
    });
  }

  /**
   * docs/api.md, Embedded sessions: a single-use token signs the account's user in and opens the entry point. A
   * browser where someone is already signed in (SECURITY.md) is asked first: the token stays
   * unused until the person confirms (POST /embed/).
   */
  @PageRead('embed')
  async embed(
    @Req() req: Request,
    @Res() res: Response,
    @Query('token') token?: string,
  ): Promise<void> {
    const link = typeof token === 'string' ? token : '';
    const current = webUser(req);
    if (current) {
      const pending = await this.iframe.peek(link);
      if (!pending) return this.linkExpired(req, res);
      if (!req.session.embedded || current.userId !== pending.userId) {
        return renderPage(req, res, 'embed-confirm.njk', {
          title: 'Open the embedded session?',
          token: link,
          signedInAs: current.email,
        });
      }
    }
    await this.openEmbedded(req, res, link);
  }

  @PageWrite('embed')
  async confirmEmbed(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.openEmbedded(req, res, formFields(req.body).token ?? '');
  }

  private async openEmbedded(req: Request, res: Response, token: string): Promise<void> {
    const redeemed = await this.iframe.redeem(token);
    if (!redeemed) return this.linkExpired(req, res);
    const account = await this.accounts.getAccount(redeemed.accountId);
    const user = await this.accounts.firstUserOfAccount(redeemed.accountId);
    if (!account.iframeEnabled || !user || user.id !== redeemed.userId) {
      res.status(403);
      return renderPage(req, res, 'error.njk', {
        title: 'Not available',
        heading: 'Embedding is not available',
        message: 'Iframe is not activated for the current user.',
      });
    }
    req.session.regenerate((err) => {
      if (err) {
        res.status(503);
        return renderPage(req, res, 'error.njk', {
          title: 'Unavailable',
          heading: 'Briefly unavailable',
          message: 'Try again.',
        });
      }
      this.signIn(req, user);
      // Inside the vendor's iframe (the browser says so), the cookie must cross sites.
      framedSessionCookie(req.session.cookie, this.config.publicUrl, req.get('sec-fetch-dest'));
      req.session.embedded = true;
      const entry = entryOf(redeemed.entryPoint, redeemed.counter);
      req.session.embeddedSession = {
        entryPoint: redeemed.entryPoint,
        apiKeyId: redeemed.apiKeyId,
        until: Date.now() + EMBEDDED_SESSION_MS,
        grants: entry.grants,
      };
      const ctx = auditContextOf(req);
      const recorded = ctx
        ? this.audit.record(securityEvent(ctx, 'embed_link', 'redeem', redeemed.entryPoint))
        : Promise.resolve();
      recorded.then(
        () => req.session.save(() => res.redirect(entry.page)),
        // No session opens without its record in the trail.
        (e: Error) => {
          this.logger.error({ err: e.message }, 'embed link redemption not recorded');
          req.session.destroy(() => {
            res.status(500);
            res.type('text/plain').send('Internal server error.');
          });
        },
      );
    });
  }

  private linkExpired(req: Request, res: Response): void {
    res.status(403);
    renderPage(req, res, 'error.njk', {
      title: 'Link expired',
      heading: 'This link has expired',
      message: 'Embedded-session links work once and for five minutes. Ask for a new one.',
    });
  }

  private pending(req: Request) {
    const pending = req.session?.twoFactorPending;
    return pending && pending.until > Date.now() ? pending : null;
  }

  private signIn(req: Request, user: User): void {
    req.session.userId = user.id;
    req.session.accountId = user.accountId;
    req.session.email = user.email;
    openSession(req, user);
    csrfToken(req);
  }

  private async completeSignIn(
    req: Request,
    res: Response,
    user: User,
    next: string,
    byRecoveryCode: boolean,
  ): Promise<void> {
    const left = byRecoveryCode ? (await this.twoFactor.status(user.id)).recoveryCodesLeft : 0;
    req.session.regenerate((err) => {
      if (err) {
        res.status(503);
        return renderPage(req, res, 'login-code.njk', {
          title: 'Two-factor sign-in',
          errors: { $: ['Sign-in is briefly unavailable. Sign in again.'] },
        });
      }
      this.signIn(req, user);
      if (byRecoveryCode) {
        const codes = `${left} unused recovery code${left === 1 ? '' : 's'}`;
        flash(req, left > 2 ? 'ok' : 'error', `You signed in with a recovery code; ${codes} left.`);
      }
      req.session.save(() => res.redirect(next));
    });
  }
}
