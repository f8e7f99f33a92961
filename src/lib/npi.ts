/**
 * An NPI's check digit (CMS, "Requirements for the NPI check digit"): the Luhn formula over the
 * first nine digits prefixed with 80840 (the card issuer prefix of health identifiers).
 */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value.slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubled: every second digit from the right of the number without its check digit.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}
