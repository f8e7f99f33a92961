import { ageOn, availabilityOn } from './quote-day';

describe('the day of a quote', () => {
  const items = [
    {
      benefit_code: 'materials',
      items: [
        { benefit_code: 'materials.frames', next_eligible_date: '2027-06-12' },
        {
          benefit_code: 'materials.spectacle_lenses',
          next_eligible_date: '2026-01-01',
          items: [{ benefit_code: 'materials.spectacle_lenses.single_vision' }],
        },
      ],
    },
  ];

  it('makes a benefit unavailable until its next eligible date, after the day only', () => {
    expect(availabilityOn(items, new Map(), '2026-11-21')).toEqual({
      frames: { available: false, until: '2027-06-12' },
      spectacle_lenses: { available: true, until: null },
      contact_lenses: { available: true, until: null },
    });
    expect(availabilityOn(items, new Map(), '2027-06-12').frames).toEqual({
      available: true,
      until: null,
    });
  });

  it("prefers the item's next_eligible date, and counts a parent's date for its children", () => {
    const parent = [
      {
        benefit_code: 'materials',
        next_eligible_date: '2027-02-01',
        items: [{ benefit_code: 'materials.contact_lenses' }],
      },
    ];
    expect(availabilityOn(parent, new Map(), '2026-11-21').contact_lenses).toEqual({
      available: false,
      until: '2027-02-01',
    });
    const stated = new Map([['materials.frames', '2026-01-01']]);
    expect(availabilityOn(items, stated, '2026-11-21').frames.available).toBe(true);
    const unknown = new Map<string, string | null>([['materials.frames', null]]);
    expect(availabilityOn(items, unknown, '2026-11-21').frames.available).toBe(true);
  });

  it('counts whole years of age on the day', () => {
    expect(ageOn('2008-11-21', '2026-11-21')).toBe(18);
    expect(ageOn('2008-11-22', '2026-11-21')).toBe(17);
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
    expect(ageOn(null, '2026-11-21')).toBeNull();
    expect(ageOn('2027-01-01', '2026-11-21')).toBeNull();
  });
});
