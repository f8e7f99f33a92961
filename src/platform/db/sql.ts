import type { DataSource } from 'typeorm';
import { managerOf, type Tx } from './database';
import { pgPool, prepared } from './pg-pool';

/**
 * The one way a repository writes SQL (docs/architecture.md, Data access): a tagged template
 * whose values travel with their text, so fragments compose without anyone counting `$n`.
 *
 *   const q = sql`SELECT id FROM tasks WHERE account_id = ${accountId} AND ${open}`;
 *   const found = await query<{ id: string }>(this.db, q, tx);
 *
 * Each `${value}` is its own parameter (arrays are one PostgreSQL array; cast where PostgreSQL
 * cannot infer the type); `${fragment}` nests another `Sql`; `sql.raw` is for the caller's
 * constants only, never input. With a `Tx` a statement runs on the transaction's query runner,
 * without one as a named prepared statement on the pool (pg-pool.ts).
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
