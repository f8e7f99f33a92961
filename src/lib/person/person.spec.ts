import { everyKey } from './person';

describe('everyKey', () => {
  it('gives the keys in the order asked, an absent or undefined one null, and nothing else', () => {
    const stored = {
      state: 'TX',
      city: 'Austin',
      line1: '1 Main St',
      extra: 'x',
      line2: undefined,
    };
    const out = everyKey(stored as Record<string, string | undefined>, [
      'line1',
      'line2',
      'recipient',
      'city',
      'zipcode',
      'state',
    ]);
    expect(JSON.stringify(out)).toBe(
      '{"line1":"1 Main St","line2":null,"recipient":null,"city":"Austin","zipcode":null,"state":"TX"}',
    );
  });

  it('keeps falsy values that are not null or undefined', () => {
    expect(everyKey({ a: '', b: 0, c: false }, ['c', 'b', 'a'])).toEqual({ c: false, b: 0, a: '' });
  });
});
