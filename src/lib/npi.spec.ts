import { isValidNpi } from './npi';

describe('isValidNpi', () => {
  it('accepts NPIs whose check digit matches (the CMS worked example 1234567893)', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1245319599')).toBe(true);
    expect(isValidNpi('1003000126')).toBe(true);
  });

  it('refuses a wrong check digit, and anything but ten digits', () => {
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('1245319598')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678930')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });
});
