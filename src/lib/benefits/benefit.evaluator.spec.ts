import { evaluatePlan, flatten, itemApplies, pickEntry } from './benefit.evaluator';
import { serializePlan } from '../../../test/support/serialize-plan';
import type { Plan } from './benefit.types';

const plan: Plan = {
  insurer_state: 'oon',
  refresh_date: '2027-01-01',
  begin_date: '2026-01-01',
  end_date: '2026-12-31',
  flags: ['demo'],
  copayment: [{ flags: ['inn'], value: '10' }],
  items: [
    {
      benefit_code: 'materials',
      refresh_date: '2027-01-01',
      copayment: [
        { flags: ['inn'], value: '25' },
        { value: '0', comment: 'no copay out of network' },
      ],
      allowance: [
        { flags: ['inn'], value: '150' },
        { flags: ['oon'], value: '70.5' },
      ],
      quantity: [{ value: 1 }],
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: '2027-01-01',
          flags: ['exclusive-use'],
          quantity_accepted: [{ value: 1 }],
          items: [
            {
              benefit_code: 'materials.frames.premium',
              refresh_date: '2027-01-01',
              flags: ['inn', 'requires-parent-use'],
              allowance: [{ flags: ['inn'], value: '50' }],
            },
          ],
        },
        {
          benefit_code: 'materials.contacts',
          refresh_date: '2027-01-01',
          flags: ['exclusive-use'],
          allowance: [{ flags: ['inn'], value: '130' }],
          is_authorization_required: [{ flags: ['oon'], value: true }],
        },
      ],
    },
  ],
};

describe('pickEntry', () => {
  it('prefers the entry flagged for the network over an unflagged one', () => {
    const list = [{ value: 'general' }, { flags: ['oon' as const], value: 'oon' }];
    expect(pickEntry(list, 'oon')?.value).toBe('oon');
    expect(pickEntry(list, 'inn')?.value).toBe('general');
  });

  it('never applies an entry flagged only for the other network', () => {
    expect(pickEntry([{ flags: ['inn' as const], value: 1 }], 'oon')).toBeNull();
    expect(pickEntry(undefined, 'inn')).toBeNull();
  });

  it('ignores non-network flags when choosing', () => {
    expect(pickEntry([{ flags: ['exclusive-use' as const], value: 3 }], 'oon')?.value).toBe(3);
  });
});

describe('evaluatePlan', () => {
  it('picks each list per network and lets children inherit what they do not define', () => {
    const [inn] = evaluatePlan(plan, 'inn');
    const [oon] = evaluatePlan(plan, 'oon');
    expect(inn.values.copayment?.value).toBe('25');
    expect(oon.values.copayment).toEqual({ value: '0', comment: 'no copay out of network' });
    expect(inn.values.allowance?.value).toBe('150');
    expect(oon.values.allowance?.value).toBe('70.5');

    const frames = inn.items[0];
    expect(frames.benefit_code).toBe('materials.frames');
    expect(frames.depth).toBe(1);
    expect(frames.values.allowance?.value).toBe('150'); // inherited
    expect(frames.values.quantity?.value).toBe(1); // inherited
    expect(frames.used).toBe(true); // accepted 1 of 1

    const premium = frames.items[0];
    expect(premium.depth).toBe(2);
    expect(premium.values.allowance?.value).toBe('50');
    expect(premium.values.copayment?.value).toBe('25'); // inherited two levels down
    expect(premium.applies).toBe(true);
    expect(oon.items[0].items[0].applies).toBe(false); // inn-only item
  });

  it('drops a list an item defines only for the other network instead of inheriting it', () => {
    const [oon] = evaluatePlan(plan, 'oon');
    const contacts = oon.items[1];
    expect(contacts.values.allowance).toBeUndefined();
    expect(contacts.values.is_authorization_required?.value).toBe(true);
    const [inn] = evaluatePlan(plan, 'inn');
    expect(inn.items[1].values.allowance?.value).toBe('130');
    expect(inn.items[1].values.is_authorization_required).toBeUndefined();
  });

  it('marks an allowance accepted in full as used', () => {
    const used: Plan = {
      ...plan,
      items: [
        {
          benefit_code: 'exam',
          refresh_date: '2027-01-01',
          allowance: [{ value: '45' }],
          allowance_accepted: [{ value: '45.0000' }],
        },
      ],
    };
    expect(evaluatePlan(used, 'oon')[0].used).toBe(true);
    expect(flatten(evaluatePlan(plan, 'inn')).map((b) => b.benefit_code)).toEqual([
      'materials',
      'materials.frames',
      'materials.frames.premium',
      'materials.contacts',
    ]);
  });

  it('reads item flags for applicability', () => {
    expect(itemApplies({ flags: ['oon'] }, 'inn')).toBe(false);
    expect(itemApplies({ flags: ['required'] }, 'inn')).toBe(true);
    expect(itemApplies({}, 'oon')).toBe(true);
  });
});

describe('serializePlan', () => {
  it('prints doubles with four decimals, integers and booleans as they are, children recursively', () => {
    const out = serializePlan(plan) as any;
    expect(out.copayment).toEqual([{ flags: ['inn'], value: '10.0000' }]);
    expect(out.flags).toEqual(['demo']);
    const materials = out.items[0];
    expect(materials.copayment[1]).toEqual({ comment: 'no copay out of network', value: '0.0000' });
    expect(materials.allowance[1]).toEqual({ flags: ['oon'], value: '70.5000' });
    expect(materials.quantity).toEqual([{ value: 1 }]);
    expect(materials.flags).toEqual([]);
    expect(materials.items[1].is_authorization_required).toEqual([{ flags: ['oon'], value: true }]);
    expect(materials.items[0].items[0]).toMatchObject({
      benefit_code: 'materials.frames.premium',
      flags: ['inn', 'requires-parent-use'],
      allowance: [{ flags: ['inn'], value: '50.0000' }],
      items: [],
    });
    expect(out.items[0]).not.toHaveProperty('end_date');
  });
});
