import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import 'express-session';
import { ConflictError } from '@/platform/kernel/errors';
import { type WebUser, webUser } from '@/platform/http/web-user';

declare module 'express-session' {
  interface SessionData {
    csrf?: string;
    /** Signed in through an embedded-session link: pages render without the top navigation. */
    embedded?: boolean;
    flash?: { kind: 'ok' | 'error'; text: string };
  }
}

export { type WebUser, webUser };

/** The signed-in user: every page behind requireSignIn has one. */
export function signedInUser(req: Request): WebUser {
  const user = webUser(req);
  if (!user) throw new Error('A signed-in page was served without a signed-in user.');
  return user;
}

/** The signed-in user's account. */
export const accountOf = (req: Request): string => signedInUser(req).accountId;

export function csrfToken(req: Request): string {
  req.session.csrf ??= randomBytes(24).toString('base64url');
  return req.session.csrf;
}

export function flash(req: Request, kind: 'ok' | 'error', text: string): void {
  req.session.flash = { kind, text };
}

/** Sends the browser on to `to`, where `text` shows once (the flash). */
export function redirectWith(
  req: Request,
  res: Response,
  to: string,
  text: string,
  kind: 'ok' | 'error' = 'ok',
): void {
  flash(req, kind, text);
  // express-session sends a response's head before its save ends, and a browser follows a 302
  // at once: saved first (as the sign-in pages do), the next page finds the message.
  req.session.save(() => res.redirect(to));
}

/**
 * Runs a change whose outcome shows on the next page: the message `apply` gives, or the words of
 * its refusal when it conflicts (409: held by another user, already done), sent to `refusedTo`.
 */
export async function redirectAfter(
  req: Request,
  res: Response,
  apply: () => Promise<string>,
  to: string,
  refusedTo = to,
): Promise<void> {
  try {
    redirectWith(req, res, to, await apply());
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e;
    redirectWith(req, res, refusedTo, e.message, 'error');
  }
}

/** Renders a page with what every page needs (user, CSRF token, embedded mode, flash). */
export function renderPage(
  req: Request,
  res: Response,
  view: string,
  context: Record<string, unknown>,
): void {
  const message = req.session?.flash;
  if (message) delete req.session.flash;
  res.render(view, {
    ...context,
    user: webUser(req),
    csrf: csrfToken(req),
    embedded: Boolean(req.session?.embedded),
    flash: message ?? null,
  });
}

/** Whether the form's `_csrf` field (parsed so far) is the session's token. */
export function csrfMatches(req: Request): boolean {
  const sent =
    typeof req.body?._csrf === 'string' ? Buffer.from(req.body._csrf as string) : Buffer.alloc(0);
  const expected = req.session?.csrf ? Buffer.from(req.session.csrf) : null;
  return Boolean(expected && sent.length === expected.length && timingSafeEqual(sent, expected));
}

/** Every state-changing form carries the session's CSRF token (synchronizer token pattern). */
export function csrfProtection(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  if (!csrfMatches(req)) {
    res.status(403);
    renderPage(req, res, 'error.njk', {
      title: 'Form expired',
      heading: 'This form has expired',
      message:
        'The security token of the form is missing or out of date. Go back, reload the page and try again.',
    });
    return;
  }
  next();
}

/** Pages other than sign-in need a signed-in user. */
export function requireSignIn(req: Request, res: Response, next: NextFunction): void {
  if (webUser(req)) return next();
  if (req.method === 'GET') {
    res.redirect(`/app/login?next=${encodeURIComponent(req.originalUrl)}`);
    return;
  }
  res.status(401);
  renderPage(req, res, 'error.njk', {
    title: 'Signed out',
    heading: 'You are signed out',
    message: 'Sign in again to continue.',
  });
}

/** Only local paths are followed after sign-in (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/app\/[^\s\\]*$/.test(next) && !next.startsWith('//')
    ? next
    : '/app/';
}
