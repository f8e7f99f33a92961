import { ValidationFailed } from './errors';
import { decodeCursor, encodeCursor, escapeLike } from './keyset-cursor';

describe('keyset cursor', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const b64 = (text: string) => Buffer.from(text).toString('base64url');

  it('round-trips a microsecond position through an opaque url-safe string', () => {
    const position = { createdAt: '2026-11-21T13:51:16.926798Z', id };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(id);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it('keeps the microseconds a Date would round away', () => {
    const a = decodeCursor(encodeCursor({ createdAt: '2026-11-21T13:51:16.926100Z', id }));
    const b = decodeCursor(encodeCursor({ createdAt: '2026-11-21T13:51:16.926900Z', id }));
    expect(a.createdAt).not.toBe(b.createdAt);
  });

  it('reads millisecond cursors (a Date, or one handed out before microseconds)', () => {
    const fromDate = encodeCursor({ createdAt: new Date('2026-11-21T13:51:16.926Z'), id });
    expect(decodeCursor(fromDate)).toEqual({ createdAt: '2026-11-21T13:51:16.926Z', id });
    expect(decodeCursor(b64(`2026-11-21T13:51:16.926Z|${id}`)).createdAt).toBe(
      '2026-11-21T13:51:16.926Z',
    );
  });

  it('refuses to encode a position that is not a timestamp and a uuid', () => {
    expect(() => encodeCursor({ createdAt: '2026-11-21 13:51:16+00', id })).toThrow(RangeError);
    expect(() => encodeCursor({ createdAt: '2026-11-21T13:51:16Z', id: 'x' })).toThrow(RangeError);
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['no separator', b64('2026-11-21T13:51:16.926Z')],
    ['bad id', b64('2026-11-21T13:51:16.926Z|1 OR 1=1')],
    ['bad date', b64(`2026-13-45T13:51:16.926Z|${id}`)],
    ['a day Date would roll over', b64(`2026-02-30T13:51:16.926Z|${id}`)],
    ['year 0000 (PostgreSQL has none)', b64(`0000-01-01T00:00:00.000Z|${id}`)],
    ['more than microseconds', b64(`2026-11-21T13:51:16.9267981Z|${id}`)],
    ['an offset instead of Z', b64(`2026-11-21T13:51:16.926+01:00|${id}`)],
    ['extra part', b64(`2026-11-21T13:51:16.926Z|${id}|x`)],
  ])('refuses %s with a field error', (_name, cursor) => {
    let error: unknown;
    try {
      decodeCursor(cursor);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toEqual({ cursor: { $: ['Invalid cursor.'] } });
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });
});
