import type { CookieOptions, Response } from 'express';

/**
 * Which kind of session a cookie carries: a staff session, or an embedded session opened inside
 * another site's iframe (see `framedSessionCookie`).
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

/**
 * An embedded session opened inside an iframe over https: the same cookie, sent cross-site
 * (`SameSite=None`, which browsers accept only with `Secure`) and partitioned by the framing
 * site (`Partitioned`, CHIPS): browsers that block third-party cookies still keep a partitioned
 * one, and it is never sent to the service outside that site's frames. Staff sessions, and an
 * embed link opened outside a frame, keep `SameSite=Lax` unpartitioned. Over http no browser
 * sends a cookie into another site's frame, so nothing changes there.
 */
export function framedSessionCookie(
  cookie: { sameSite?: unknown; secure?: unknown; partitioned?: unknown },
  publicUrl: string,
  fetchDest: string | undefined,
): void {
  if (!publicUrl.startsWith('https://') || fetchDest !== 'iframe') return;
  cookie.sameSite = 'none';
  cookie.secure = true;
  cookie.partitioned = true;
}
