import type { DataSource } from 'typeorm';
import { managerOf, type Tx } from './database';
import { pgPool, prepared } from './pg-pool';

/**
 * The one way a repository writes SQL (docs/architecture.md, Data access): a tagged template
 * whose values travel with their text, so a fragment can be built in one file and placed in a
 * statement of another without anyone counting `$n`.
 *
 *   const open = sql`status = ${'queued'}`;
 *   const q = sql`SELECT id FROM tasks WHERE account_id = ${accountId} AND ${open}`;
 *   compile(q);   // { text: 'SELECT id FROM tasks WHERE account_id = $1 AND status = $2', values }
 *   const found = await query<{ id: string }>(this.db, q, tx);
 *
 * - `${value}` is one parameter, whatever the value: a string, a number, null, a Date, an object
 *   (sent as JSON text by `pg`) or an array (one PostgreSQL array: `id = ANY(${ids}::uuid[])`).
 *   Cast where PostgreSQL cannot infer the type (`${x}::text IS NULL`): each `${…}` is its own
 *   parameter, even for the same value.
 * - `${fragment}` places another `Sql` there with its values; `compile` numbers them all.
 * - `sql.join(fragments, separator)`, `sql.empty`, and `sql.raw(text)` for text that is never a
 *   value: identifiers, keywords, an order's direction, from the caller's constants only (never
 *   input).
 *
 * The run functions take the repository's data source and, when the statement belongs to a
 * transaction, its `Tx`: in `tx` the statement goes through the transaction's query runner;
 * without one it goes to the driver's pool as a named prepared statement (`prepared` in
 * pg-pool.ts, whose names a transaction-mode pooler drops: pooler.ts).
 */
class Fragment {
  private constructor(
    /** The text around the values: one more than `values`. */
    readonly texts: readonly string[],
    readonly values: readonly unknown[],
  ) {
    Object.freeze(this);
  }

  /** Builds a fragment from a template's parts, nested fragments flattened into it. */
  static of(strings: readonly string[], values: readonly unknown[]): Fragment {
    const texts = [strings[0]];
    const flat: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Fragment) {
        texts[texts.length - 1] += value.texts[0];
        for (let j = 0; j < value.values.length; j++) {
          flat.push(value.values[j]);
          texts.push(value.texts[j + 1]);
        }
        texts[texts.length - 1] += strings[i + 1];
      } else {
        flat.push(value);
        texts.push(strings[i + 1]);
      }
    });
    return new Fragment(Object.freeze(texts), Object.freeze(flat));
  }

  /** A fragment placed in a plain string would lose its values: refused. */
  toString(): string {
    throw new TypeError('An Sql fragment placed in a string: place it in sql`…` instead.');
  }
}

/** A fragment of SQL with its values; made only by `sql` and its helpers. */
export type Sql = Fragment;

/** `sql\`…\``: an immutable fragment (above). */
export const sql = Object.assign(
  (strings: TemplateStringsArray, ...values: unknown[]): Sql => Fragment.of(strings, values),
  {
    /** Nothing: a condition or clause left out. */
    empty: Fragment.of([''], []),
    /** Trusted text (an identifier, a keyword) from the caller's constants; never a value. */
    raw: (text: string): Sql => Fragment.of([text], []),
    /** `fragments` one after the other, `separator` (trusted text) between them. */
    join: (fragments: readonly Sql[], separator = ', '): Sql =>
      Fragment.of([...fragments.map((_, i) => (i === 0 ? '' : separator)), ''], fragments),
  },
);

/** The statement's text, its values numbered `$1…` in order, and those values. */
export function compile(q: Sql): { text: string; values: unknown[] } {
  let text = q.texts[0];
  for (let i = 1; i < q.texts.length; i++) text += `$${i}${q.texts[i]}`;
  return { text, values: [...q.values] };
}

interface Answer<R> {
  rows: R[];
  count: number;
}

async function run<R>(db: DataSource, q: Sql, tx: Tx | null | undefined): Promise<Answer<R>> {
  const { text, values } = compile(q);
  if (tx) {
    const answer = await managerOf(db, tx).queryRunner!.query(text, values, true);
    return { rows: (answer.records ?? []) as R[], count: answer.affected ?? 0 };
  }
  const answer = await pgPool(db).query(prepared(text, values));
  return { rows: answer.rows as R[], count: answer.rowCount ?? 0 };
}

/** The rows `q` answers, in `tx` when given. */
export async function query<R>(db: DataSource, q: Sql, tx?: Tx | null): Promise<R[]> {
  return (await run<R>(db, q, tx)).rows;
}

/** The first row `q` answers, or null. */
export async function queryOne<R>(db: DataSource, q: Sql, tx?: Tx | null): Promise<R | null> {
  return (await run<R>(db, q, tx)).rows[0] ?? null;
}

/** How many rows `q` changed (INSERT, UPDATE, DELETE without RETURNING's rows). */
export async function execute(db: DataSource, q: Sql, tx?: Tx | null): Promise<number> {
  return (await run(db, q, tx)).count;
}
