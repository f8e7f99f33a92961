import {
  formatDecimal4,
  fromMinor,
  isDecimalInput,
  multiplyDecimal,
  normaliseDecimal,
  sumDecimals,
  toMinor,
} from './decimal';

describe('decimal helpers', () => {
  it('prints four decimals without passing through a float', () => {
    expect(formatDecimal4('12.2')).toBe('12.2000');
    expect(formatDecimal4('0')).toBe('0.0000');
    expect(formatDecimal4('1234567890.1234')).toBe('1234567890.1234');
    expect(formatDecimal4('-0.5')).toBe('-0.5000');
    // The text fast path prints what the exact (BigInt) path prints.
    for (const v of [
      '7',
      '007.5',
      '-0',
      '-0.0000',
      '12.',
      '0.0001',
      '-12.34',
      '99999999999999999999.9999',
      ' 3.1 ',
    ])
      expect(formatDecimal4(v)).toBe(fromMinor(toMinor(normaliseDecimal(v))));
    expect(() => formatDecimal4('1.23456')).toThrow(RangeError);
    expect(formatDecimal4(null)).toBeNull();
  });

  it('sums 0.1 + 0.2 exactly', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3000');
    expect(sumDecimals(['19999999.9999', '0.0001'])).toBe('20000000.0000');
  });

  it('multiplies by a whole number exactly (12.22 × 2 = 24.44, 0.1 × 3 = 0.3)', () => {
    expect(multiplyDecimal('12.22', 2)).toBe('24.4400');
    expect(multiplyDecimal('0.1', 3)).toBe('0.3000');
    expect(multiplyDecimal('9999999999.9999', 999)).toBe('9989999999999.9001');
    expect(multiplyDecimal('5', 0)).toBe('0.0000');
    expect(() => multiplyDecimal('1', 1.5)).toThrow(RangeError);
  });

  it('accepts decimal strings and plain numbers, refuses exponents and junk', () => {
    expect(isDecimalInput('12.22')).toBe(true);
    expect(isDecimalInput(12.22)).toBe(true);
    expect(isDecimalInput(' 7 ')).toBe(true);
    expect(isDecimalInput('1e5')).toBe(false);
    expect(isDecimalInput(1e21)).toBe(false);
    expect(isDecimalInput(Number.NaN)).toBe(false);
    expect(isDecimalInput('12,50')).toBe(false);
    expect(isDecimalInput('')).toBe(false);
    expect(isDecimalInput(null)).toBe(false);
  });

  it('normalises leading zeros and signs', () => {
    expect(normaliseDecimal('007.50')).toBe('7.50');
    expect(normaliseDecimal('-0.0')).toBe('0.0');
    expect(normaliseDecimal(12.5)).toBe('12.5');
    expect(toMinor('12.2')).toBe(122000n);
  });

  it('refuses more than four decimal places when converting', () => {
    expect(() => toMinor('1.23456')).toThrow(RangeError);
  });
});
