import type { Request } from 'express';
import 'express-session';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    accountId?: string;
    email?: string;
  }
}

/**
 * The signed-in web user of a session. Here rather than in the web module so that modules the web
 * pages use (the audit trail names its actor) need not import the web module.
 */
export interface WebUser {
  userId: string;
  accountId: string;
  email: string;
  /** SECURITY.md; a session without one is granted nothing beyond staff. */
  role: 'admin' | 'staff';
}

/** The session's user, or null when nobody is signed in (`role`: set by the web sessions). */
export function webUser(req: Request): WebUser | null {
  const s = req.session;
  return s?.userId && s.accountId && s.email
    ? {
        userId: s.userId,
        accountId: s.accountId,
        email: s.email,
        role: s.role === 'admin' ? 'admin' : 'staff',
      }
    : null;
}
