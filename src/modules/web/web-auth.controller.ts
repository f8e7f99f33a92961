import { Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type Redis from 'ioredis';
import { AccountsService } from '@/modules/accounts/accounts.service';
import {
  ENTRY_POINTS,
  IframeSessionService,
} from '@/modules/iframe-session/iframe-session.service';
import { InjectRedis } from '@/modules/redis/redis.module';
import { formFields } from './form-validation';
import { csrfToken, renderPage, safeNext, webUser } from './web-context';

const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 30;
const FAILURE_WINDOW_SECONDS = 15 * 60;

const ENTRY_PAGES: Record<(typeof ENTRY_POINTS)[number], string> = {
  add_patient: '/app/patients/new',
  insurers: '/app/insurers/',
  passwords: '/app/passwords/',
};

/** Sign-in, sign-out and the embedded-session landing. */
@ApiExcludeController()
@Controller()
export class WebAuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly iframe: IframeSessionService,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  @Get('app/login')
  loginPage(@Req() req: Request, @Res() res: Response, @Query('next') next?: string): void {
    if (webUser(req)) return res.redirect(safeNext(next));
    renderPage(req, res, 'login.njk', { title: 'Sign in', next: safeNext(next), email: '' });
  }

  @Post('app/login')
  async login(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const email = (form.email ?? '').trim().toLowerCase();
    const next = safeNext(form.next);
    const refuse = (status: number, error: string) => {
      res.status(status);
      renderPage(req, res, 'login.njk', { title: 'Sign in', next, email, error });
    };
    const emailKey = `login-fail:email:${email}`;
    const ipKey = `login-fail:ip:${req.ip ?? 'unknown'}`;
    const [emailFailures, ipFailures] = await Promise.all([
      this.redis.get(emailKey),
      this.redis.get(ipKey),
    ]);
    if (
      Number(emailFailures) >= MAX_FAILURES_PER_EMAIL ||
      Number(ipFailures) >= MAX_FAILURES_PER_IP
    ) {
      return refuse(429, 'Too many failed sign-in attempts. Try again in 15 minutes.');
    }
    const user =
      email && form.password ? await this.accounts.verifyCredentials(email, form.password) : null;
    if (!user) {
      await this.redis
        .multi()
        .incr(emailKey)
        .expire(emailKey, FAILURE_WINDOW_SECONDS)
        .incr(ipKey)
        .expire(ipKey, FAILURE_WINDOW_SECONDS)
        .exec();
      return refuse(401, 'The e-mail or password is not right.');
    }
    await this.redis.del(emailKey);
    // A fresh session id on sign-in (no session fixation).
    req.session.regenerate((err) => {
      if (err) return refuse(503, 'Sign-in is briefly unavailable. Try again.');
      req.session.userId = user.id;
      req.session.accountId = user.accountId;
      req.session.email = user.email;
      csrfToken(req);
      req.session.save(() => res.redirect(next));
    });
  }

  @Post('app/logout')
  logout(@Req() req: Request, @Res() res: Response): void {
    req.session.destroy(() => {
      res.clearCookie('vision.sid', { path: '/' });
      res.redirect('/app/login');
    });
  }

  /** CONTRACT §7: a single-use token signs the account's user in and opens the entry point. */
  @Get('embed')
  async embed(
    @Req() req: Request,
    @Res() res: Response,
    @Query('token') token?: string,
  ): Promise<void> {
    const redeemed = typeof token === 'string' ? await this.iframe.redeem(token) : null;
    if (!redeemed) {
      res.status(403);
      return renderPage(req, res, 'error.njk', {
        title: 'Link expired',
        heading: 'This link has expired',
        message: 'Embedded-session links work once and for five minutes. Ask for a new one.',
      });
    }
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
      req.session.userId = user.id;
      req.session.accountId = user.accountId;
      req.session.email = user.email;
      req.session.embedded = true;
      csrfToken(req);
      req.session.save(() => res.redirect(ENTRY_PAGES[redeemed.entryPoint]));
    });
  }
}
