import fc from 'fast-check';
import { formatInstant, isoDate, todayIso } from './time';

const AT = new Date('2026-11-21T13:51:16.926Z');

describe('formatInstant', () => {
  it.each([
    ['api', '2026-11-21T13:51:16.926+00:00'],
    ['utc', '2026-11-21T13:51:16.926Z'],
    ['page', '2026-11-21 13:51 UTC'],
    ['minute', '2026-11-21T13:51:00Z'],
  ] as const)('%s writes %j', (format, text) => {
    expect(formatInstant(AT, format)).toBe(text);
  });

  it('reads a driver string or epoch milliseconds as the Date it names', () => {
    expect(formatInstant('2026-11-21 13:51:16.926+00', 'api')).toBe(
      '2026-11-21T13:51:16.926+00:00',
    );
    expect(formatInstant(AT.getTime(), 'utc')).toBe('2026-11-21T13:51:16.926Z');
  });

  it('api and utc name the same instant; page and minute are it to the minute', () => {
    const instants = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instants, (d) => {
        expect(Date.parse(formatInstant(d, 'api'))).toBe(d.getTime());
        expect(Date.parse(formatInstant(d, 'utc'))).toBe(d.getTime());
        const page = formatInstant(d, 'page');
        expect(page).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
        expect(Date.parse(`${page.slice(0, 16).replace(' ', 'T')}Z`)).toBe(
          d.getTime() - (d.getTime() % 60_000),
        );
        const minute = formatInstant(d, 'minute');
        expect(minute).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
        expect(Date.parse(minute)).toBe(d.getTime() - (d.getTime() % 60_000));
      }),
    );
  });
});

describe('isoDate and todayIso', () => {
  it('write a date value as YYYY-MM-DD', () => {
    expect(isoDate('2026-11-21')).toBe('2026-11-21');
    expect(isoDate(AT)).toBe('2026-11-21');
    expect(isoDate(null)).toBeNull();
  });

  it('count days from today in UTC', () => {
    jest.useFakeTimers({ now: AT });
    try {
      expect(todayIso()).toBe('2026-11-21');
      expect(todayIso(10)).toBe('2026-12-01');
    } finally {
      jest.useRealTimers();
    }
  });
});
