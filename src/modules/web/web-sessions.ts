import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type session from 'express-session';
import 'express-session';
import { AccountsService, type User, type UserRole } from '@/modules/accounts';
import { WebSessionsRepository } from './store/web-sessions.repository';

/** SECURITY.md: a session ends after 30 minutes without a request, and 12 hours after sign-in. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 3600 * 1000;
/** `lastSeenAt` is written at most this often, so not every page view rewrites the session. */
const SEEN_RESOLUTION_MS = 15 * 1000;

declare module 'express-session' {
  interface SessionData {
    /** The user's role, read from the database on every request (a change applies at once). */
    role?: UserRole;
    /** Epoch ms of the sign-in: the absolute timeout counts from here. */
    signedInAt?: number;
    /** Epoch ms of the last request: the idle timeout counts from here. */
    lastSeenAt?: number;
    /** The user's session epoch at sign-in: raising it in the database ends this session. */
    sessionEpoch?: number;
    /** Shown in the user's list of sessions. */
    userAgent?: string;
    ip?: string;
  }
}

/** What a signed-in session carries besides the user: its clocks, epoch and where it was opened. */
export function openSession(req: Request, user: User): void {
  const now = Date.now();
  req.session.role = user.role;
  req.session.signedInAt = now;
  req.session.lastSeenAt = now;
  req.session.sessionEpoch = user.sessionEpoch;
  req.session.userAgent = (req.headers['user-agent'] ?? '').slice(0, 200);
  req.session.ip = req.ip ?? '';
}

/** Why a session has ended by its clocks alone, or null while it is alive. */
export function sessionExpiry(s: session.SessionData, now: number): 'idle' | 'absolute' | null {
  if (!s.signedInAt || now - s.signedInAt >= SESSION_ABSOLUTE_MS) return 'absolute';
  if (now - (s.lastSeenAt ?? s.signedInAt) >= SESSION_IDLE_MS) return 'idle';
  return null;
}

/**
 * Middleware right after the session is loaded: a signed-in session past its idle or absolute
 * timeout, of a user who was disabled, or opened before the user's session epoch was raised
 * (password changed, "sign out everywhere") is signed out before anything else sees it; the
 * request goes on signed out (pages then send it to sign-in). A live one gets its role from the
 * database and its last-seen time.
 */
@Injectable()
export class SessionCheck {
  private readonly logger = new Logger(SessionCheck.name);

  constructor(private readonly accounts: AccountsService) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    const s = req.session;
    if (!s?.userId) return next();
    const signOut = (reason: string) => {
      this.logger.log({ userId: s.userId, reason }, 'web session ended');
      req.session.regenerate((err) => next(err));
    };
    const now = Date.now();
    const expired = sessionExpiry(s, now);
    if (expired) return signOut(expired);
    this.accounts.findUserById(s.userId).then(
      (user) => {
        if (!user || user.disabledAt) return signOut('user disabled');
        if (user.sessionEpoch !== s.sessionEpoch) return signOut('sessions ended');
        if (s.role !== user.role) s.role = user.role;
        if (now - (s.lastSeenAt ?? 0) >= SEEN_RESOLUTION_MS) s.lastSeenAt = now;
        next();
      },
      (err: unknown) => next(err),
    );
  }
}

export interface SessionSummary {
  /** Names the session in forms without revealing its id. */
  handle: string;
  current: boolean;
  signedInAt: Date | null;
  lastSeenAt: Date | null;
  userAgent: string;
  ip: string;
  embedded: boolean;
}

const handleOf = (sid: string) => createHash('sha256').update(sid).digest('hex').slice(0, 24);

/**
 * A user's open sessions ("see and end their sessions"): the stored sessions signed in as the
 * user (WebSessionsRepository), less those their own clocks have ended.
 */
@Injectable()
export class WebSessions {
  constructor(private readonly stored: WebSessionsRepository) {}

  async list(userId: string, currentSid: string): Promise<SessionSummary[]> {
    const live = await this.live(userId);
    return live
      .map(({ sid, data }) => ({
        handle: handleOf(sid),
        current: sid === currentSid,
        signedInAt: data.signedInAt ? new Date(data.signedInAt) : null,
        lastSeenAt: data.lastSeenAt ? new Date(data.lastSeenAt) : null,
        userAgent: data.userAgent ?? '',
        ip: data.ip ?? '',
        embedded: Boolean(data.embedded),
      }))
      .sort((a, b) => Number(b.current) - Number(a.current) || cmp(b.lastSeenAt, a.lastSeenAt));
  }

  /** Ends one of the user's sessions, named by its handle; false when it is not theirs. */
  async end(userId: string, handle: string): Promise<boolean> {
    const sid = (await this.live(userId)).find((x) => handleOf(x.sid) === handle)?.sid;
    if (!sid) return false;
    await this.stored.delete(userId, [sid]);
    return true;
  }

  /**
   * Deletes every session of the user but `keepSid`. The user's epoch, raised first by the
   * caller, ends them too; deleting them frees them at once and takes them off the list.
   */
  async endOthers(userId: string, keepSid: string | null): Promise<void> {
    await this.stored.deleteOthers(userId, keepSid);
  }

  /** The user's sessions still stored and still signed in by their own clocks. */
  private async live(userId: string): Promise<{ sid: string; data: session.SessionData }[]> {
    const now = Date.now();
    return (await this.stored.ofUser(userId)).filter(({ data }) => !sessionExpiry(data, now));
  }
}

function cmp(a: Date | null, b: Date | null): number {
  return (a?.getTime() ?? 0) - (b?.getTime() ?? 0);
}
