import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { urlencoded, type NextFunction, type Request, type Response } from 'express';
import session from 'express-session';
import type Redis from 'ioredis';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { AccountsModule } from '@/modules/accounts/accounts.module';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { AuthModule } from '@/modules/auth/auth.module';
import { EligibilityModule } from '@/modules/eligibility/eligibility.module';
import { IframeSessionModule } from '@/modules/iframe-session/iframe-session.module';
import { InsurersModule } from '@/modules/insurers/insurers.module';
import { PatientsModule } from '@/modules/patients/patients.module';
import { InjectRedis } from '@/modules/redis/redis.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { RedisSessionStore } from './session-store';
import { WebAuthController } from './web-auth.controller';
import { csrfProtection, requireSignIn } from './web-context';
import { WebPagesController } from './web-pages.controller';
import { WebSettingsController } from './web-settings.controller';

const SESSION_TTL_SECONDS = 8 * 3600;

/** The provider web application under /app/ (server-rendered, works without JavaScript). */
@Module({
  imports: [
    AccountsModule,
    AuthModule,
    EligibilityModule,
    PatientsModule,
    WebhooksModule,
    InsurersModule,
    IframeSessionModule,
  ],
  controllers: [WebAuthController, WebPagesController, WebSettingsController],
})
export class WebModule implements NestModule {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectRedis() private readonly redis: Redis,
    private readonly accounts: AccountsService,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    const https = this.config.publicUrl.startsWith('https://');
    const sessions = session({
      name: 'vision.sid',
      secret: this.config.sessionSecret,
      store: new RedisSessionStore(this.redis, SESSION_TTL_SECONDS),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      cookie: {
        httpOnly: true,
        path: '/',
        maxAge: SESSION_TTL_SECONDS * 1000,
        // Inside a cross-site iframe a cookie needs SameSite=None, which browsers accept only with Secure.
        secure: https,
        sameSite: https ? 'none' : 'lax',
      },
    });
    const controllers = [WebAuthController, WebPagesController, WebSettingsController];
    consumer
      .apply(
        urlencoded({ extended: false, limit: '100kb', parameterLimit: 200 }),
        sessions,
        this.frameHeaders(),
        csrfProtection,
      )
      .forRoutes(...controllers);
    consumer
      .apply(requireSignIn)
      .exclude(
        { path: 'app/login', method: RequestMethod.ALL },
        { path: 'embed', method: RequestMethod.ALL },
      )
      .forRoutes(WebPagesController, WebSettingsController, {
        path: 'app/logout',
        method: RequestMethod.POST,
      });
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
