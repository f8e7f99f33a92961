import { ValidationFailed } from './errors';
import { decodeCursor, encodeCursor, escapeLike } from './keyset-cursor';

describe('keyset cursor', () => {
  const position = {
    createdAt: new Date('2026-11-21T13:51:16.926Z'),
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  };

  it('round-trips a position through an opaque url-safe string', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(position.id);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['no separator', Buffer.from('2026-11-21T13:51:16.926Z').toString('base64url')],
    ['bad id', Buffer.from('2026-11-21T13:51:16.926Z|1 OR 1=1').toString('base64url')],
    ['bad date', Buffer.from('2026-13-45T13:51:16.926Z|' + position.id).toString('base64url')],
    ['extra part', Buffer.from(`2026-11-21T13:51:16.926Z|${position.id}|x`).toString('base64url')],
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
