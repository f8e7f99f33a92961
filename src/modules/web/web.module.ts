import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import session from 'express-session';
import { InjectConfig } from '@/platform/config/config.module';
import { formBodies } from '@/platform/http/body/form-body';
import type { AppConfig } from '@/platform/config/env';
import { AccountsModule, AccountsService } from '@/modules/accounts';
import { AuditModule } from '@/modules/audit';
import { AuthModule } from '@/modules/auth';
import { IframeSessionModule } from '@/modules/iframe-session';
import { multipartForms } from './batch-upload';
import { EmbeddedReachGuard, EmbeddedSessionCheck } from './embedded-session';
import { WebMaintenance } from './jobs/web.maintenance';
import { SignInThrottle } from './sign-in-throttle';
import { chain, pageArea } from './page-pipeline';
import { refuseEmbedded, TwoFactorGate } from './two-factor-gate';
import { WebAuthController } from './pages/web-auth.controller';
import { WebApiKeysController } from './pages/web-api-keys.controller';
import { WebAuditController } from './pages/web-audit.controller';
import { csrfProtection, requireSignIn, webUser } from './web-context';
import { WebLocationsController } from './pages/web-locations.controller';
import { WebSettingsController } from './pages/web-settings.controller';
import {
  WebTwoFactorController,
  WebTwoFactorEnrolController,
} from './pages/web-two-factor.controller';
import { MailModule } from '@/modules/mail';
import { UserAccessService } from './user-access.service';
import { WebAccountController } from './pages/web-account.controller';
import { WebPasswordController } from './pages/web-password.controller';
import { sessionCookie } from './session-cookie';
import { WebSessionsRepository } from './store/web-sessions.repository';
import { SESSION_IDLE_MS, SessionCheck, WebSessions } from './web-sessions';
import { WebUsersController } from './pages/web-users.controller';

/** Idle timeout (SECURITY.md): the cookie and the stored session last this long past each use. */
const SESSION_TTL_SECONDS = SESSION_IDLE_MS / 1000;

/**
 * The shell's own pages behind sign-in (those of the modules it sits on). A feature's pages are
 * controllers of its pages module (`<feature>/pages/<feature>-pages.module.ts`), which imports
 * WebModule; every page, wherever it is registered, gets sessions, CSRF, the frame headers and
 * the sign-in check below.
 */
const PAGE_CONTROLLERS = [
  WebApiKeysController,
  WebLocationsController,
  WebSettingsController,
  WebTwoFactorController,
  WebAuditController,
  WebUsersController,
  WebAccountController,
];

/** Signed-in pages outside the two-factor gate: where the gate sends users without it. */
const ENROLMENT_CONTROLLERS = [WebTwoFactorEnrolController];

/** The provider web application under /app/ (server-rendered, works without JavaScript). */
@Module({
  imports: [AccountsModule, AuthModule, AuditModule, IframeSessionModule, MailModule],
  controllers: [
    WebAuthController,
    WebPasswordController,
    ...PAGE_CONTROLLERS,
    ...ENROLMENT_CONTROLLERS,
  ],
  providers: [
    SessionCheck,
    WebSessions,
    UserAccessService,
    SignInThrottle,
    WebSessionsRepository,
    WebMaintenance,
    TwoFactorGate,
    EmbeddedSessionCheck,
    // Global, like the API's scope guard: pages declare what embedded sessions reach.
    { provide: APP_GUARD, useClass: EmbeddedReachGuard },
  ],
})
export class WebModule implements NestModule {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly stored: WebSessionsRepository,
    private readonly accounts: AccountsService,
    private readonly twoFactorGate: TwoFactorGate,
    private readonly embeddedSessions: EmbeddedSessionCheck,
    private readonly sessionCheck: SessionCheck,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    const cookie = sessionCookie(this.config.publicUrl);
    const sessions = session({
      name: cookie.name,
      secret: this.config.sessionSecret,
      store: this.stored.store(),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      cookie: { ...cookie.options, maxAge: SESSION_TTL_SECONDS * 1000 },
    });
    const readForm = formBodies();
    const forms = chain(
      sessions,
      (req: Request, res: Response, next: NextFunction) =>
        this.embeddedSessions.use(req, res, next),
      // Timeouts, disabled users and ended sessions (SECURITY.md), before anything reads the user.
      (req: Request, res: Response, next: NextFunction) => this.sessionCheck.use(req, res, next),
      this.frameHeaders(),
      // A form is read once its session is known (docs/api.md, Conventions, as the API's bodies
      // after the key): on the sign-in pages, or for a signed-in user; a signed-out post elsewhere
      // is refused by its missing CSRF token without a byte of it read.
      (req: Request, res: Response, next: NextFunction) =>
        pageArea(req.baseUrl + req.path) === 'sign-in' || webUser(req)
          ? readForm(req, res, next)
          : next(),
      // Uploads are read only for a signed-in session, and a file only after its form's CSRF
      // token: nothing of an upload is buffered before both are checked.
      multipartForms,
      csrfProtection,
    );
    const gate = (req: Request, res: Response, next: NextFunction) =>
      this.twoFactorGate.use(req, res, next);
    const signedIn = chain(requireSignIn, gate);
    const enrolment = chain(requireSignIn, refuseEmbedded);
    const twoFactorPages = chain(requireSignIn, gate, refuseEmbedded);
    // One router layer for every page, mounted on /app and /embed: routes registered per page
    // and middleware (about 130 layers) would be matched against every API request too.
    const pages = (req: Request, res: Response, next: NextFunction) => {
      const area = pageArea(req.baseUrl + req.path);
      if (area === 'static') return next();
      forms(req, res, (err?: unknown) => {
        if (err) return next(err);
        switch (area) {
          case 'sign-in':
            return next();
          case 'logout':
            return requireSignIn(req, res, next);
          case 'enrolment':
            return enrolment(req, res, next);
          case 'two-factor':
            return twoFactorPages(req, res, next);
          case 'page':
            return signedIn(req, res, next);
        }
      });
    };
    consumer
      .apply(pages)
      .forRoutes(
        { path: 'app', method: RequestMethod.ALL },
        { path: 'app/*path', method: RequestMethod.ALL },
        { path: 'embed', method: RequestMethod.ALL },
      );
  }

  /**
   * A strict CSP for the pages (no scripts, no inline styles) whose frame-ancestors are the
   * origins the signed-in account lists, when embedding is enabled for it; 'self' otherwise.
   */
  private frameHeaders() {
    return (req: Request, res: Response, next: NextFunction) => {
      const accountId = req.session?.accountId;
      const apply = (origins: string[]) => {
        res.removeHeader('X-Frame-Options');
        res.setHeader(
          'Content-Security-Policy',
          [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "form-action 'self'",
            "base-uri 'self'",
            "object-src 'none'",
            `frame-ancestors ${["'self'", ...origins].join(' ')}`,
          ].join('; '),
        );
        res.setHeader('Cache-Control', 'no-store');
        next();
      };
      if (!accountId) return apply([]);
      this.accounts.getAccount(accountId).then(
        (account) => apply(account.iframeEnabled ? account.frameAncestors : []),
        (err: unknown) => next(err),
      );
    };
  }
}
