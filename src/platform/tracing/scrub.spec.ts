import fc from 'fast-check';
import { scrubAttributes, scrubEventAttributes, withoutQuery } from './scrub';

const secret = fc.stringMatching(/^[A-Za-z0-9]{6,20}$/).map((s) => `Zq${s}`);
const path = fc
  .array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { maxLength: 4 })
  .map((parts) => `/${parts.join('/')}`);

describe('span attributes before export (docs/observability.md, Tracing)', () => {
  it('never lets a query string, a header or a value outside the known namespaces out', () => {
    fc.assert(
      fc.property(path, secret, fc.boolean(), fc.string(), (p, s, outgoing, other) => {
        const attributes = {
          'url.full': `https://clearinghouse.example${p}?name=${s}`,
          'http.url': `http://127.0.0.1:3000${p}?member_id=${s}#${s}`,
          'url.path': p,
          'http.target': `${p}?dob=${s}`,
          'url.query': `search=${s}`,
          'http.request.header.authorization': s,
          'db.query.parameter.0': s,
          'db.postgresql.values': [s],
          'patient.name': s,
          [`custom.${other}`]: s,
          'db.query.text': 'SELECT 1 WHERE id = $1',
          'insurer.code': 'insurer:vision:davis_vision',
        };
        const out = scrubAttributes(attributes, outgoing);
        expect(JSON.stringify(out)).not.toContain(s);
        expect(out['db.query.text']).toBe('SELECT 1 WHERE id = $1');
        expect(out['insurer.code']).toBe('insurer:vision:davis_vision');
        if (outgoing) {
          // A call this process made: the origin alone (a webhook's path may hold its secret).
          expect(out['url.full']).toBe('https://clearinghouse.example');
          expect(out['http.url']).toBe('http://127.0.0.1:3000');
          expect(out).not.toHaveProperty('url.path');
          expect(out).not.toHaveProperty('http.target');
        } else {
          expect(out['url.full']).toBe(`https://clearinghouse.example${p}`);
          expect(out['url.path']).toBe(p);
          expect(out['http.target']).toBe(p);
        }
      }),
    );
  });

  it('keeps of an exception its type alone', () => {
    expect(
      scrubEventAttributes({
        'exception.type': 'QueryFailedError',
        'exception.message': 'invalid input syntax for type date: "1971-03-29"',
        'exception.stacktrace': 'QueryFailedError: invalid input syntax ...',
      }),
    ).toEqual({ 'exception.type': 'QueryFailedError' });
    expect(scrubEventAttributes({ 'http.response.status_code': 200 })).toEqual({});
  });

  it('cuts a value at its query or fragment', () => {
    expect(withoutQuery('/a/b?c=d')).toBe('/a/b');
    expect(withoutQuery('/a#x?y')).toBe('/a');
    expect(withoutQuery('/a/b')).toBe('/a/b');
  });
});
