import session from 'express-session';
import type Redis from 'ioredis';
import { SESSION_ABSOLUTE_MS, sessionKey, userSessionsKey } from './web-sessions';

/**
 * Server-side web sessions in Redis (under the service's key prefix): the cookie holds only a
 * random session id. Sessions expire with the cookie's max age.
 */
export class RedisSessionStore extends session.Store {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {
    super();
  }

  private key(sid: string): string {
    return sessionKey(sid);
  }

  override get(
    sid: string,
    callback: (err: unknown, session?: session.SessionData | null) => void,
  ): void {
    this.redis.get(this.key(sid)).then(
      (raw) => callback(null, raw ? (JSON.parse(raw) as session.SessionData) : null),
      (err) => callback(err),
    );
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const write = this.redis
      .multi()
      .set(this.key(sid), JSON.stringify(data), 'EX', this.ttlSeconds);
    // A signed-in session is listed under its user, who can see and end it (SECURITY.md).
    if (data.userId) {
      write
        .sadd(userSessionsKey(data.userId), sid)
        .pexpire(userSessionsKey(data.userId), SESSION_ABSOLUTE_MS);
    }
    write.exec().then(
      () => callback?.(),
      (err) => callback?.(err),
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.redis.del(this.key(sid)).then(
      () => callback?.(),
      (err) => callback?.(err),
    );
  }

  override touch(sid: string, _data: session.SessionData, callback?: () => void): void {
    this.redis.expire(this.key(sid), this.ttlSeconds).then(
      () => callback?.(),
      () => callback?.(),
    );
  }
}
