import fc from 'fast-check';
import { JsonScanner, parseJsonBody } from './json-scan';

/** What the scanner counts, computed on the parsed value: containers and scalars, not keys. */
function countValues(value: unknown): { values: number; depth: number } {
  if (value === null || typeof value !== 'object') return { values: 1, depth: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  let values = 1;
  let depth = 0;
  for (const child of children) {
    const c = countValues(child);
    values += c.values;
    depth = Math.max(depth, c.depth);
  }
  return { values, depth: depth + 1 };
}

const scan = (text: string, maxValues: number, maxDepth: number, chunk = 7) => {
  const scanner = new JsonScanner(maxValues, maxDepth);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) {
    const problem = scanner.feed(bytes.subarray(i, i + chunk));
    if (problem) return problem;
  }
  return null;
};

describe('JsonScanner', () => {
  it('counts exactly what the parsed body holds, in any chunking', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 50 }), (value, chunk) => {
        const text = JSON.stringify(value, null, chunk % 3 === 0 ? 2 : undefined);
        const { values, depth } = countValues(value);
        expect(scan(text, values, Math.max(depth, 1), chunk)).toBeNull();
        expect(scan(text, values - 1, 1_000, chunk)).toBe(
          `Too many values in the body (at most ${values - 1}).`,
        );
        if (depth > 1)
          expect(scan(text, 1_000_000, depth - 1, chunk)).toBe(
            `The body is nested too deeply (at most ${depth - 1} levels).`,
          );
      }),
    );
  });

  it('is not fooled by brackets, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ a: '[[[,,,{{:"\\"]]]', b: ['x,y', '\\'] });
    expect(scan(text, 5, 2, 3)).toBeNull();
    expect(scan(text, 4, 2, 3)).not.toBeNull();
  });

  it('refuses a flood of values at the first one over the cap, without the rest', () => {
    const scanner = new JsonScanner(1_000, 64);
    expect(scanner.feed(Buffer.from('[' + '1,'.repeat(999)))).toBeNull();
    expect(scanner.feed(Buffer.from('1,1'))).toBe('Too many values in the body (at most 1000).');
  });

  it('refuses deep nesting at the level over the cap', () => {
    expect(scan('['.repeat(64) + ']'.repeat(64), 1_000, 64)).toBeNull();
    expect(scan('['.repeat(65), 1_000, 64)).toBe(
      'The body is nested too deeply (at most 64 levels).',
    );
  });
});

describe('parseJsonBody', () => {
  it('removes the keys that could reach a prototype, at any depth', () => {
    const body = parseJsonBody(
      '{"__proto__": {"admin": true}, "a": [{"constructor": {"prototype": {"x": 1}}, "b": 1}], "prototype": 2}',
    ) as Record<string, unknown>;
    expect(body).toEqual({ a: [{ b: 1 }] });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('throws on malformed text', () => {
    expect(() => parseJsonBody('{"a": ')).toThrow(SyntaxError);
  });
});
