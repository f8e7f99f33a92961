import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import { DataSource } from 'typeorm';
import { pgPool } from '@/platform/db/pg-pool';
import { execute, query, sql } from '@/platform/db/sql';

/** A stored session: its id and what express-session keeps in it. */
export interface StoredSession {
  sid: string;
  data: session.SessionData;
}

/**
 * Web sessions in PostgreSQL (docs/configuration.md, Database and Redis), table `web_sessions`: the cookie holds only a random
 * session id. express-session reads and writes them through connect-pg-simple on the driver's own
 * pool (the same connections as everything else); a row expires with its cookie, and
 * WebMaintenance deletes expired rows. The user's list of sessions reads `user_id`, which the
 * table derives from the session's own data.
 */
@Injectable()
export class WebSessionsRepository {
  private readonly logger = new Logger(WebSessionsRepository.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** express-session's store. No touch: a session in use is rewritten every 15 s anyway. */
  store(): session.Store {
    const PgStore = connectPgSimple(session);
    return new PgStore({
      pool: pgPool(this.db),
      tableName: 'web_sessions',
      pruneSessionInterval: false,
      disableTouch: true,
      errorLog: (...args: unknown[]) =>
        this.logger.warn({ err: String(args[args.length - 1]) }, 'web session store'),
    });
  }

  /** The user's stored sessions that have not expired by the store's clock. */
  async ofUser(userId: string): Promise<StoredSession[]> {
    return query<StoredSession>(
      this.db,
      sql`SELECT sid, sess AS data FROM web_sessions WHERE user_id = ${userId} AND expire >= now()`,
    );
  }

  /** Deletes the user's sessions named in `sids`. */
  async delete(userId: string, sids: string[]): Promise<void> {
    if (sids.length === 0) return;
    await execute(
      this.db,
      sql`DELETE FROM web_sessions WHERE user_id = ${userId} AND sid = ANY(${sids})`,
    );
  }

  /** Deletes every session of the user but `keepSid`. */
  async deleteOthers(userId: string, keepSid: string | null): Promise<void> {
    await execute(
      this.db,
      sql`DELETE FROM web_sessions WHERE user_id = ${userId} AND sid IS DISTINCT FROM ${keepSid}`,
    );
  }

  /** Deletes the sessions past their expiry; answers how many. */
  prune(): Promise<number> {
    return execute(this.db, sql`DELETE FROM web_sessions WHERE expire < now()`);
  }
}
