import fc from 'fast-check';
import { toMinor } from './decimal';
import { formatMoney, MONEY, type MoneyFormat } from './money';

/** What a reader of the printed amount gets back, in ten-thousandths. */
const parse = (printed: string) => toMinor(printed.replace('$', '').replaceAll(',', ''));

const FORMATS = Object.entries(MONEY) as [string, MoneyFormat][];
const minor = fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n });

describe('formatMoney', () => {
  it.each([
    // pages and benefit tables
    ['page', '45.0000', '$45.00'],
    ['page', '45.1299', '$45.12'],
    ['page', '1234567.5', '$1234567.50'],
    ['page', '7', '$7.00'],
    // CSV cells and the CMS-1500
    ['bare', '45.0000', '45.00'],
    ['bare', '12.5', '12.50'],
    ['bare', '0.0000', '0.00'],
    ['bare', '012.5', '12.50'],
    // claim e-mails, claim and remittance pages
    ['statement', '145.0000', '$145.00'],
    ['statement', '1234.5670', '$1,234.567'],
    ['statement', '-1234567.1000', '$-1,234,567.10'],
    ['statement', '999.0001', '$999.0001'],
    // estimate notes
    ['note', '45.0000', '$45.00'],
    ['note', '45.1200', '$45.12'],
    ['note', '45.1230', '$45.1230'],
    ['note', '1234.0050', '$1234.0050'],
  ] as const)('%s prints %j as %j', (format, amount, printed) => {
    expect(formatMoney(amount, MONEY[format])).toBe(printed);
  });

  it('prints integer ten-thousandths as it prints their decimal text', () => {
    expect(formatMoney(451_234n)).toBe('$45.12');
    expect(formatMoney(451_234n, MONEY.note)).toBe('$45.1234');
    expect(formatMoney(-50n)).toBe('$-0.00');
  });

  it.each(FORMATS)('%s: any whole number of cents prints and parses back', (_, format) => {
    fc.assert(
      fc.property(minor, (n) => {
        const cents = n * 100n;
        const printed = formatMoney(cents, format);
        expect(parse(printed)).toBe(cents);
        expect(formatMoney(printed.replace('$', '').replaceAll(',', ''), format)).toBe(printed);
      }),
    );
  });

  it('statement and note keep every sub-cent digit; page and bare drop them toward zero', () => {
    fc.assert(
      fc.property(minor, (n) => {
        expect(parse(formatMoney(n, MONEY.statement))).toBe(n);
        expect(parse(formatMoney(n, MONEY.note))).toBe(n);
        const cents = parse(formatMoney(n, MONEY.bare));
        expect(cents % 100n).toBe(0n);
        expect(n - cents).toBe(n % 100n);
      }),
    );
  });

  it('groups thousands only where asked, and the digits stay the same', () => {
    fc.assert(
      fc.property(minor, (n) => {
        const grouped = formatMoney(n, { grouping: true });
        expect(grouped.replaceAll(',', '')).toBe(formatMoney(n));
        expect(grouped).toMatch(/^\$-?\d{1,3}(,\d{3})*\.\d{2}$/);
      }),
    );
  });
});
