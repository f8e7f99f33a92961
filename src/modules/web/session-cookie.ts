import type { CookieOptions, Response } from 'express';

/**
 * Which kind of session a cookie carries. Staff sessions only, for now: embedded sessions opened
 * inside another site's iframe will need a cookie of their own (cross-site: `SameSite=None`,
 * `Partitioned`), named and set here beside this one.
 */
export type SessionCookieKind = 'staff';

const NAMES: Record<SessionCookieKind, string> = { staff: 'vision.sid' };

export interface SessionCookie {
  name: string;
  /** For express-session's `cookie` and for `res.clearCookie` alike (no `maxAge` here). */
  options: CookieOptions & { sameSite: 'lax' };
}

/**
 * The session cookie's name and attributes, in one place for the session middleware and every
 * sign-out. Over https (production) the name takes the `__Host-` prefix, which browsers accept
 * only with `Secure`, `Path=/` and no `Domain`: another subdomain cannot set or shadow it.
 * `SameSite=Lax` keeps the cookie off other sites' form posts and subrequests; `HttpOnly` keeps
 * it from scripts. Over plain http (development) the prefix cannot be used.
 */
export function sessionCookie(publicUrl: string, kind: SessionCookieKind = 'staff'): SessionCookie {
  const https = publicUrl.startsWith('https://');
  return {
    name: https ? `__Host-${NAMES[kind]}` : NAMES[kind],
    options: { httpOnly: true, path: '/', secure: https, sameSite: 'lax' },
  };
}

/** Signs the browser out of its cookie (after the session itself is destroyed). */
export function clearSessionCookie(res: Response, publicUrl: string): void {
  const { name, options } = sessionCookie(publicUrl);
  res.clearCookie(name, options);
}
