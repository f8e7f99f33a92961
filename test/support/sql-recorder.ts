import { Client } from 'pg';

/**
 * Records the SQL texts every `pg` client runs (TypeORM's and the pool's prepared statements
 * alike), for snapshot tests of the repositories: a change to a repository's SQL shows in review
 * as a snapshot diff. Texts are normalised (whitespace runs to one space, TypeORM's generated
 * aliases kept), values are not recorded.
 *
 *   const sql = recordSql();
 *   await repo.findByCode(accountId, 'PAT-1');
 *   expect(sql.take()).toMatchSnapshot();
 *   sql.stop();
 */
export interface SqlRecording {
  /** The statements run since the last `take` (or the start), in order; clears the list. */
  take(): string[];
  /** Puts `pg`'s own `query` back. */
  stop(): void;
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Statements a process runs on its own timer whatever the test does (ProcessRegistry's
 * heartbeat, in every role): never part of a repository's snapshot.
 */
const BACKGROUND = /\bservice_processes\b/;

export function recordSql(options: { keepBackground?: boolean } = {}): SqlRecording {
  const background = options.keepBackground ? null : BACKGROUND;
  const proto = Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  let seen: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0];
    const text =
      typeof config === 'string'
        ? config
        : config && typeof config === 'object' && 'text' in config
          ? String(config.text)
          : null;
    if (text !== null && !background?.test(text)) seen.push(text.replace(/\s+/g, ' ').trim());
    return original.apply(this, args);
  };
  return {
    take: () => {
      const out = seen.filter((t) => !/^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/i.test(t));
      seen = [];
      return out;
    },
    stop: () => {
      proto.query = original;
    },
  };
}
