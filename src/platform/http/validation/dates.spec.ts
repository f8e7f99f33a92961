import type { ArgumentMetadata } from '@nestjs/common';
import { TIMESTAMP_MESSAGE, TimestampField, timestampMs } from './fields';
import { fastTransform, REFUSE } from './fast-path';
import { createValidationPipe } from './validation-errors';
import { fullPathOf } from '../../../../test/support/validation-pipe';

class Window {
  @TimestampField({ required: true })
  starts_at: string;

  @TimestampField()
  ends_at?: string | null;
}

const pipe = createValidationPipe();
const meta: ArgumentMetadata = { type: 'body', metatype: Window };
const fullPath = fullPathOf(Window);

describe('TimestampField (RFC 3339 with its offset)', () => {
  it.each([
    ['2026-11-24T15:04:00-06:00', Date.UTC(2026, 10, 24, 21, 4)],
    ['2026-11-24T15:04:00Z', Date.UTC(2026, 10, 24, 15, 4)],
    ['2026-11-24t15:04:00z', Date.UTC(2026, 10, 24, 15, 4)],
    ['2026-11-24T15:04:00.5+05:30', Date.UTC(2026, 10, 24, 9, 34, 0, 500)],
    ['2026-11-24T15:04:00.123456789+00:00', Date.UTC(2026, 10, 24, 15, 4, 0, 123)],
    ['2024-02-29T23:59:59-23:59', Date.UTC(2024, 2, 1, 23, 58, 59)],
    ['2000-01-01T00:30:00+01:00', Date.UTC(1999, 11, 31, 23, 30)],
  ])('reads %s as its instant', (text, ms) => {
    expect(timestampMs(text)).toBe(ms);
  });

  it.each([
    '2026-11-24T15:04:00',
    '2026-11-24 15:04:00Z',
    '2026-11-24T15:04Z',
    '2026-11-24',
    '2026-02-29T10:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T15:60:00Z',
    '2026-11-24T15:04:60Z',
    '2026-11-24T15:04:00+24:00',
    '2026-11-24T15:04:00+0600',
    '2026-11-24T15:04:00.Z',
    '2026-11-24T15:04:00.1234567890Z',
    ' 2026-11-24T15:04:00Z',
    '',
    1_700_000_000_000,
    null,
  ])('refuses %p', (value) => {
    expect(timestampMs(value)).toBeNull();
  });

  it('answers the field error through the production pipe, fast path and full path alike', async () => {
    const bad = { starts_at: '2026-11-24T15:04:00' };
    await expect(pipe.transform(bad, meta)).rejects.toMatchObject({
      errors: { starts_at: { $: [TIMESTAMP_MESSAGE] } },
    });
    expect(await fullPath(bad)).toEqual({ starts_at: { $: [TIMESTAMP_MESSAGE] } });
    expect(await fullPath({ ends_at: 5 })).toEqual({
      starts_at: { $: ['This field is required.'] },
      ends_at: { $: [TIMESTAMP_MESSAGE] },
    });
    expect(fastTransform(Window, bad)).toBe(REFUSE);
  });

  it('keeps a valid value as sent, on the fast path and the full path', async () => {
    const good = { starts_at: '2026-11-24T15:04:00-06:00', ends_at: null };
    const fast = fastTransform(Window, good);
    expect(fast).toBeInstanceOf(Window);
    expect(fast).toEqual(good);
    const full = await fullPath({ ...good });
    expect(full).toBeInstanceOf(Window);
    expect(full).toEqual(good);
  });
});
