import { IntListField } from './fields';
import { fastTransform, REFUSE } from './fast-path';
import { fullPathOf } from '../../../../test/support/validation-pipe';

class Policy {
  @IntListField({ required: true, maxItems: 3, min: 0, max: 30, unique: true })
  days: number[];
}

const fullPath = fullPathOf(Policy);

describe('IntListField', () => {
  it.each([
    [[], null],
    [[0, 30, 7], null],
    [[31], { days: { '0': { $: ['Ensure this value is less than or equal to 30.'] } } }],
    [
      [1, -1, 'x', 2.5],
      {
        days: {
          $: ['Ensure this field has no more than 3 elements.'],
        },
      },
    ],
    [
      [-1, 'x', 2.5],
      {
        days: {
          '0': { $: ['Ensure this value is greater than or equal to 0.'] },
          '1': { $: ['A valid integer is required.'] },
          '2': { $: ['A valid integer is required.'] },
        },
      },
    ],
    [[2, 2], { days: { $: ['Duplicate values are not allowed.'] } }],
    ['3', { days: { $: ['Expected a list of items.'] } }],
    [null, { days: { $: ['This field may not be null.'] } }],
  ])(
    'answers %p with %p, the fast path vouching only for what the full path accepts',
    async (days, errors) => {
      const full = await fullPath({ days });
      const fast = fastTransform(Policy, { days });
      if (errors === null) {
        expect(full).toBeInstanceOf(Policy);
        expect(full).toEqual({ days });
        expect(fast).toEqual(full);
      } else {
        expect(full).toEqual(errors);
        expect(fast).toBe(REFUSE);
      }
    },
  );
});
