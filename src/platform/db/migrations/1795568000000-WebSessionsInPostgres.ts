import { migration } from './migration';

/**
 * docs/configuration.md, Database and Redis: web sessions and the counts shared by every process
 * (the sign-in throttle's, stored-password reads') live in PostgreSQL, so the web
 * application works with or without Redis. `web_sessions` has the columns connect-pg-simple
 * reads and writes (sid, sess, expire), and the user a signed-in session belongs to, for the
 * user's list of sessions. Sessions kept in Redis until now are not carried over: their users
 * sign in again once.
 */
export const WebSessionsInPostgres1795568000000 = migration('WebSessionsInPostgres1795568000000', {
  async up(q) {
    await q.query(
      `CREATE TABLE web_sessions (
         sid varchar PRIMARY KEY,
         sess json NOT NULL,
         expire timestamptz NOT NULL,
         user_id text GENERATED ALWAYS AS (sess->>'userId') STORED
       )`,
    );
    await q.query(`CREATE INDEX web_sessions_expire ON web_sessions (expire)`);
    await q.query(
      `CREATE INDEX web_sessions_user ON web_sessions (user_id) WHERE user_id IS NOT NULL`,
    );
    await q.query(
      `CREATE TABLE window_counts (
         key text PRIMARY KEY,
         count integer NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
    );
    await q.query(`CREATE INDEX window_counts_expires_at ON window_counts (expires_at)`);
  },

  async down(q) {
    await q.query(`DROP TABLE window_counts`);
    await q.query(`DROP TABLE web_sessions`);
  },
});
