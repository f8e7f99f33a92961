import fc from 'fast-check';
import { wrapText } from './wrap';

/** One point per character: widths are lengths. */
const measure = (s: string) => s.length;

describe('wrapText (the lines of a snapshot cell, field or paragraph)', () => {
  it('breaks between words, keeps the text its own lines and cuts a word too long for any line', () => {
    expect(wrapText('Once every 24 months; shared with contact lenses', measure, 20)).toEqual([
      'Once every 24',
      'months; shared with',
      'contact lenses',
    ]);
    expect(wrapText('2027-08-31\nstated by the payer', measure, 12)).toEqual([
      '2027-08-31',
      'stated by',
      'the payer',
    ]);
    expect(wrapText('visit-2026-11-21-0042', measure, 8)).toEqual([
      'visit-20',
      '26-11-21',
      '-0042',
    ]);
    expect(wrapText('', measure, 8)).toEqual(['']);
    expect(wrapText('tab\there', measure, 20)).toEqual(['tab here']);
  });

  it('never makes a line wider than the width, and loses no character but spaces', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300, unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '—') }),
        fc.integer({ min: 1, max: 40 }),
        (text, width) => {
          const lines = wrapText(text, measure, width);
          expect(lines.every((l) => l.length <= width)).toBe(true);
          expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        },
      ),
    );
  });
});
