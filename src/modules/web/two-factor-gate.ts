import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import 'express-session';
import { TwoFactorService } from '@/modules/accounts';
import { renderPage, webUser } from './web-context';

declare module 'express-session' {
  interface SessionData {
    /**
     * The password was right and the user has two-factor on: the session is not signed in until
     * the code is given (before `until`, epoch ms). Holds no secret.
     */
    twoFactorPending?: { userId: string; next: string; until: number };
  }
}

export const ENROL_PATH = '/app/two-factor/enrol';

/**
 * When the account requires two-factor sign-in, a signed-in user without it can do nothing but
 * enrol (and sign out): pages redirect to enrolment and forms are refused. Checked on every
 * request, so turning the requirement on reaches sessions that are already open.
 *
 * Embedded sessions pass: they are opened by a single-use link minted with the account's API key
 * (a credential held by the embedding software's server), not by a password; in exchange they
 * reach only their entry point's pages (EmbeddedReachGuard), end with the key and after an hour,
 * are no full sign-in (the login page still asks), and cannot reach the two-factor pages at all
 * (refuseEmbedded).
 */
@Injectable()
export class TwoFactorGate implements NestMiddleware {
  constructor(private readonly twoFactor: TwoFactorService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const user = webUser(req);
    if (!user || req.session.embedded) return next();
    this.twoFactor.state(user.userId).then(
      ({ enabled, required }) => {
        if (!required || enabled) return next();
        if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(ENROL_PATH);
        res.status(403);
        renderPage(req, res, 'error.njk', {
          title: 'Two-factor sign-in required',
          heading: 'Two-factor sign-in is required',
          message: 'Your account requires two-factor sign-in. Set it up to continue.',
        });
      },
      (err: unknown) => next(err),
    );
  }
}

/**
 * Two-factor settings belong to the person who holds the authenticator: an embedded session
 * (signed in by the API key's link, not by that person) cannot enrol, turn it off or change the
 * account's requirement.
 */
export function refuseEmbedded(req: Request, res: Response, next: NextFunction): void {
  if (!req.session?.embedded) return next();
  res.status(403);
  renderPage(req, res, 'error.njk', {
    title: 'Not available',
    heading: 'Not available in an embedded session',
    message: 'Two-factor settings are changed after signing in to the application directly.',
  });
}
