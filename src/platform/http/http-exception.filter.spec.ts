import { DatabaseError } from 'pg';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors';
import { QueryFailedError } from 'typeorm';
import { isUnavailable, unstorableTextMessage } from './http-exception.filter';

describe('isUnavailable', () => {
  it('takes ioredis giving up on a command while Redis is away for a 503, not a 500', () => {
    expect(isUnavailable(new MaxRetriesPerRequestError(1))).toBe(true);
  });

  it('takes refused connections and offline-queue refusals for a 503', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), {
      code: 'ECONNREFUSED',
    });
    expect(isUnavailable(refused)).toBe(true);
    expect(
      isUnavailable(new Error("Stream isn't writeable and enableOfflineQueue options is false")),
    ).toBe(true);
  });

  it('takes a server refusing more connections (53300) for a 503, from TypeORM or from pg', () => {
    const full = () =>
      Object.assign(new DatabaseError('sorry, too many clients already', 0, 'error'), {
        code: '53300',
      });
    expect(isUnavailable(full())).toBe(true);
    expect(isUnavailable(new QueryFailedError('SELECT 1', [], full()))).toBe(true);
  });

  it('leaves other errors to the 500 answer', () => {
    expect(isUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    );
  });
});

describe('unstorableTextMessage', () => {
  const failed = (code: string) =>
    new QueryFailedError('SELECT 1', [], Object.assign(new Error('pg'), { code }));

  it('maps PostgreSQL refusing U+0000 to the field message', () => {
    expect(unstorableTextMessage(failed('22021'))).toBe('Null characters are not allowed.');
    expect(unstorableTextMessage(failed('22P05'))).toBe('Null characters are not allowed.');
  });

  it('maps the same refusal from a query on the pg pool', () => {
    const refused = Object.assign(new DatabaseError('invalid byte sequence', 0, 'error'), {
      code: '22021',
    });
    expect(unstorableTextMessage(refused)).toBe('Null characters are not allowed.');
  });

  it('leaves other database errors alone', () => {
    expect(unstorableTextMessage(failed('23505'))).toBeNull();
    expect(unstorableTextMessage(new Error('22021'))).toBeNull();
  });
});
