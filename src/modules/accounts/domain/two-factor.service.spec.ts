import { normaliseRecoveryCode } from './two-factor.service';

describe('normaliseRecoveryCode', () => {
  it('ignores case, spaces and dashes, and reads o, i and l as the digits they look like', () => {
    expect(normaliseRecoveryCode('AB1C2-DE3FG')).toBe('ab1c2de3fg');
    expect(normaliseRecoveryCode(' ab1c2 de3fg ')).toBe('ab1c2de3fg');
    expect(normaliseRecoveryCode('oilxx-xxxxx')).toBe('011xxxxxxx');
  });

  it('refuses codes of another length or with letters outside the alphabet', () => {
    expect(normaliseRecoveryCode('ab1c2-de3f')).toBeNull();
    expect(normaliseRecoveryCode('ab1c2-de3fgh')).toBeNull();
    expect(normaliseRecoveryCode('ab1c2-de3fu')).toBeNull();
    expect(normaliseRecoveryCode('')).toBeNull();
  });
});
