import { Client } from 'pg';

/**
 * Records the SQL texts every `pg` client runs (TypeORM's and the pool's prepared statements
 * alike), for snapshot tests of the repositories: a change to a repository's SQL shows in review
 * as a snapshot diff. Texts are normalised (whitespace runs to one space, TypeORM's generated
 * aliases kept), values are not recorded.
 *
 *   const sql = recordSql();
 *   const patient = await sql.snapshot('findOne', () => repo.findOne(accountId, 'PAT-1'));
 *   expect(patient?.code).toBe('PAT-1');   // and what it answered
 *   sql.stop();
 */
export interface SqlRecording {
  /** The statements run since the last `take` (or the start), in order; clears the list. */
  take(): string[];
  /**
   * Runs `call` alone on the recording and snapshots its statements as `name` (`sorted`: in text
   * order, for statements made concurrently); answers what `call` answered.
   */
  snapshot<T>(name: string, call: () => Promise<T>, sorted?: boolean): Promise<T>;
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
  const take = (): string[] => {
    const out = seen.filter((t) => !/^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/i.test(t));
    seen = [];
    return out;
  };
  return {
    take,
    snapshot: async (name, call, sorted = false) => {
      take();
      const out = await call();
      const statements = take();
      expect(sorted ? statements.sort() : statements).toMatchSnapshot(name);
      return out;
    },
    stop: () => {
      proto.query = original;
    },
  };
}
