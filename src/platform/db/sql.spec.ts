import { compile, sql } from './sql';

/** The SQL tag (docs/architecture.md, Data access): fragments carry their values; compile numbers them. */
describe('sql', () => {
  it('makes each value a parameter, numbered in order', () => {
    const q = sql`SELECT id FROM t WHERE a = ${'x'} AND b = ${2}`;
    expect(compile(q)).toEqual({
      text: 'SELECT id FROM t WHERE a = $1 AND b = $2',
      values: ['x', 2],
    });
  });

  it('flattens nested fragments and renumbers their values where they land', () => {
    const inner = sql`c = ${'in'} OR d = ${null}`;
    const q = sql`WHERE a = ${1} AND (${inner}) AND e = ${'last'}`;
    expect(compile(q)).toEqual({
      text: 'WHERE a = $1 AND (c = $2 OR d = $3) AND e = $4',
      values: [1, 'in', null, 'last'],
    });
    expect(compile(sql`${inner}`)).toEqual({ text: 'c = $1 OR d = $2', values: ['in', null] });
  });

  it('answers the same text for the same shape, whatever the values', () => {
    const of = (id: string) => sql`SELECT 1 WHERE id = ${id} AND ${sql`k = ${id}`}`;
    expect(compile(of('a')).text).toBe(compile(of('b')).text);
  });

  it('sends an array as one parameter, for = ANY', () => {
    const ids = ['a', 'b', 'c'];
    expect(compile(sql`id = ANY(${ids}::uuid[])`)).toEqual({
      text: 'id = ANY($1::uuid[])',
      values: [ids],
    });
  });

  it('joins fragments with a separator, and joins none to nothing', () => {
    const rows = [1, 2, 3].map((n) => sql`(${n}, ${`n${n}`})`);
    expect(compile(sql`VALUES ${sql.join(rows)}`)).toEqual({
      text: 'VALUES ($1, $2), ($3, $4), ($5, $6)',
      values: [1, 'n1', 2, 'n2', 3, 'n3'],
    });
    const conditions = [sql`a = ${1}`, sql`b = ${2}`];
    expect(compile(sql.join(conditions, ' AND ')).text).toBe('a = $1 AND b = $2');
    expect(compile(sql`x${sql.join([])}y`)).toEqual({ text: 'xy', values: [] });
  });

  it('leaves out an empty fragment and places raw text as it is', () => {
    const order = sql.raw('DESC');
    const q = sql`SELECT 1 ${sql.empty}ORDER BY t.${sql.raw('created_at')} ${order} LIMIT ${5}`;
    expect(compile(q)).toEqual({
      text: 'SELECT 1 ORDER BY t.created_at DESC LIMIT $1',
      values: [5],
    });
  });

  it('is immutable: a fragment placed twice keeps its own values', () => {
    const f = sql`v = ${'one'}`;
    const q = sql`${f} AND ${f}`;
    expect(compile(q)).toEqual({ text: 'v = $1 AND v = $2', values: ['one', 'one'] });
    expect(Object.isFrozen(f)).toBe(true);
    expect(Object.isFrozen(f.values)).toBe(true);
    expect(() => (f.values as unknown[]).push('two')).toThrow(TypeError);
    expect(compile(f)).toEqual({ text: 'v = $1', values: ['one'] });
  });

  it('refuses to be placed in a plain string, where its values would be lost', () => {
    const f = sql`v = ${'one'}`;
    expect(() => `WHERE ${String(f)}`).toThrow(TypeError);
  });
});
