import { closestInsurerCode } from './insurer-codes';

describe('unknown insurer codes (docs/api.md, Errors)', () => {
  it('suggests the known code whose last segment or name an unknown one names', () => {
    expect(closestInsurerCode('VSP')).toBe('insurer:vision:vsp');
    expect(closestInsurerCode('insurer:vision:VSP')).toBe('insurer:vision:vsp');
    expect(closestInsurerCode('eyemed')).toBe('insurer:vision:eye_med');
    expect(closestInsurerCode('Davis')).toBe('insurer:vision:davis_vision');
    expect(closestInsurerCode('insurer:vison:spectera')).toBe('insurer:vision:spectera');
  });

  it('names none when nothing is close', () => {
    expect(closestInsurerCode('insurer:vision:nope')).toBeNull();
    expect(closestInsurerCode('x')).toBeNull();
    expect(closestInsurerCode('insurer:x:y')).toBeNull();
    // "vi" starts several names: no single suggestion.
    expect(closestInsurerCode('vi')).toBeNull();
  });
});
