import { claimTotalCost, lineCharge } from './claim-charges';

describe('claim charges (docs/api.md, Claims: cost is per unit)', () => {
  it('charges a line its unit cost times its quantity', () => {
    expect(lineCharge({ cost: '12.22', quantity: 2 })).toBe('24.4400');
    expect(lineCharge({ cost: '0.1', quantity: 3 })).toBe('0.3000');
  });

  it("totals the real service's documented example: 12.22 × 2 + 44.21 = 68.65", () => {
    expect(
      claimTotalCost([
        { cost: '12.22', quantity: 2 },
        { cost: '44.21', quantity: 1 },
      ]),
    ).toBe('68.6500');
  });

  it('totals stored numeric text exactly', () => {
    expect(
      claimTotalCost([
        { cost: '145.0000', quantity: 1 },
        { cost: '90.5000', quantity: 2 },
        { cost: '1075.2500', quantity: 1 },
      ]),
    ).toBe('1401.2500');
  });
});
