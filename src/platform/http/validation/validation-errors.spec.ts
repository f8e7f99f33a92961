import { ValidationError } from 'class-validator';
import { ErrorTree, ValidationFailed } from '../../kernel/errors';
import { MSG } from '../../kernel/messages';
import { NestedField, NestedListField, StringField, StringListField } from './fields';
import { DateField } from './dates';
import { DecimalField, IntField } from './numbers';
import { createValidationPipe, toErrorTree } from './validation-errors';

class ProbeAddress {
  @StringField({ required: true, maxLength: 10 })
  city: string;
}

class ProbeLine {
  @DecimalField({ required: true })
  cost: string;

  @IntField({ min: 1, max: 9 })
  quantity?: number | null;
}

class ProbeBody {
  @StringField({ required: true, maxLength: 5, pattern: /^[a-z]*$/, patternMessage: 'Lowercase.' })
  name: string;

  @DateField({ notFuture: true })
  dob?: string | null;

  @NestedField(() => ProbeAddress)
  address?: ProbeAddress | null;

  @NestedListField(() => ProbeLine, { minItems: 1, maxItems: 3 })
  lines?: ProbeLine[] | null;

  @StringListField({
    maxItems: 4,
    itemMaxLength: 12,
    unique: true,
    choices: ['a', 'b', 'toolong'],
  })
  tags?: string[] | null;

  @StringField({ choices: ['female', 'male'] })
  sex?: string | null;
}

const valid = { name: 'abc', lines: [{ cost: '1.50' }] };

/** The envelope's `errors` for a body, through the production pipe (no HTTP), or null if valid. */
async function errorsOf(body: unknown): Promise<ErrorTree | null> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: ProbeBody });
    return null;
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors;
    throw e;
  }
}

describe('the error tree of a request (docs/api.md, Errors)', () => {
  it('accepts a valid body', async () => {
    expect(await errorsOf(valid)).toBeNull();
  });

  it('nests object fields and keys list elements by their index as a string', async () => {
    const errors = await errorsOf({
      ...valid,
      address: { city: 'far too long a city' },
      lines: [{ cost: '1' }, { cost: 'x', quantity: 0 }],
    });
    expect(JSON.stringify(errors)).toBe(
      JSON.stringify({
        address: { city: { $: [MSG.maxLength(10)] } },
        lines: {
          '1': {
            cost: { $: [MSG.number] },
            quantity: { $: ['Ensure this value is greater than or equal to 1.'] },
          },
        },
      }),
    );
  });

  it('shows only the presence error of a missing or null field', async () => {
    expect(await errorsOf({ ...valid, name: undefined })).toEqual({ name: { $: [MSG.required] } });
    expect(await errorsOf({ ...valid, name: null })).toEqual({ name: { $: [MSG.notNull] } });
  });

  it('shows only the type error of a value of the wrong type', async () => {
    expect(await errorsOf({ ...valid, name: 12 })).toEqual({ name: { $: [MSG.string] } });
    expect(await errorsOf({ ...valid, lines: { cost: '1' } })).toEqual({
      lines: { $: [MSG.list] },
    });
  });

  it('shows every other failed rule of a field, in the order the decorator declares them', async () => {
    expect(await errorsOf({ ...valid, name: 'ABCDEFG' })).toEqual({
      name: { $: [MSG.maxLength(5), 'Lowercase.'] },
    });
  });

  it('reports all failing fields of a request together', async () => {
    const errors = await errorsOf({ name: '', dob: '2023-02-30', lines: [] });
    expect(errors).toEqual({
      name: { $: [MSG.blank] },
      dob: { $: [MSG.date, '2023-02-30 is not a date: that month has 28 days.'] },
      lines: { $: [MSG.minItems(1)] },
    });
  });

  describe("second messages after the contract's own (docs/api.md, Errors)", () => {
    it('says a date in the right form that names no day does not exist', async () => {
      expect((await errorsOf({ ...valid, dob: '1985-02-30' }))?.dob).toEqual({
        $: [
          'Date has wrong format. Use YYYY-MM-DD.',
          '1985-02-30 is not a date: that month has 28 days.',
        ],
      });
      expect((await errorsOf({ ...valid, dob: '1984-02-30' }))?.dob).toEqual({
        $: [MSG.date, '1984-02-30 is not a date: that month has 29 days.'],
      });
      expect((await errorsOf({ ...valid, dob: '1985-13-01' }))?.dob).toEqual({
        $: [MSG.date, '1985-13-01 is not a date: there is no month 13.'],
      });
    });

    it('adds nothing to a date in another form', async () => {
      expect((await errorsOf({ ...valid, dob: '02/03/1985' }))?.dob).toEqual({ $: [MSG.date] });
    });

    it('lists the allowed values after a refused choice', async () => {
      expect((await errorsOf({ ...valid, sex: 'F' }))?.sex).toEqual({
        $: ['"F" is not a valid choice.', 'Allowed values: female, male.'],
      });
    });
  });

  describe('a list of strings', () => {
    it('puts each bad element under its index, beside the list-level errors', async () => {
      const errors = await errorsOf({ ...valid, tags: ['a', 7, '  ', 'toolong', 'b'] });
      expect(errors).toEqual({ tags: { $: [MSG.maxItems(4)] } });
      const some = await errorsOf({ ...valid, tags: ['a', 7, 'a', 'zz'] });
      expect(JSON.stringify(some)).toBe(
        JSON.stringify({
          tags: {
            '1': { $: [MSG.string] },
            '3': { $: [MSG.choice('zz'), 'Allowed values: a, b, toolong.'] },
            $: ['Duplicate values are not allowed.'],
          },
        }),
      );
    });

    it('quotes an element as sent, even when it looks like a message placeholder', async () => {
      // Element messages never pass through class-validator's $property/$target substitution.
      const errors = await errorsOf({ ...valid, tags: ['$property', '$target'] });
      expect(errors).toEqual({
        tags: {
          '0': { $: [MSG.choice('$property'), MSG.allowedChoices(['a', 'b', 'toolong'])] },
          '1': { $: [MSG.choice('$target'), MSG.allowedChoices(['a', 'b', 'toolong'])] },
        },
      });
    });
  });

  describe('a list of objects', () => {
    const notObjects: [string, unknown][] = [
      ['an empty list', []],
      ['a deeply nested list', [[[[[[]]]]]]],
      ['a list holding a valid object', [{ cost: '1' }]],
      ['a list holding an invalid object', [{}]],
      ['a string', 'x'],
      ['a number', 3],
      ['null', null],
      ['true', true],
      ['false', false],
    ];

    it.each(notObjects)('refuses %s as an element, on its index alone', async (_, element) => {
      const errors = await errorsOf({ ...valid, lines: [{ cost: '1' }, element] });
      expect(JSON.stringify(errors)).toBe(JSON.stringify({ lines: { '1': { $: [MSG.object] } } }));
    });

    it('reports a bad element and a bad object of the same list together', async () => {
      const errors = await errorsOf({ ...valid, lines: [[{}], { cost: '-1' }, 'x'] });
      expect(JSON.stringify(errors)).toBe(
        JSON.stringify({
          lines: {
            '0': { $: [MSG.object] },
            '1': { cost: { $: ['Ensure this value is greater than or equal to 0.'] } },
            '2': { $: [MSG.object] },
          },
        }),
      );
    });

    it('reports an overlong list by its size alone, not element by element', async () => {
      const errors = await errorsOf({ ...valid, lines: [[], 'x', {}, null] });
      expect(errors).toEqual({ lines: { $: [MSG.maxItems(3)] } });
    });
  });

  describe('built from a ValidationError itself', () => {
    const itemError = (item: unknown) => (item === 'bad' ? 'Bad item.' : null);
    const listError = (over: Partial<ValidationError>): ValidationError =>
      Object.assign(new ValidationError(), {
        property: 'codes',
        constraints: { items: 'Whatever the message says.' },
        contexts: { items: { itemError } },
        children: [],
        ...over,
      });

    it('computes element errors from the list it carries and the check in the context', () => {
      expect(toErrorTree([listError({ value: ['ok', 'bad', 'bad'] })])).toEqual({
        codes: { '1': { $: ['Bad item.'] }, '2': { $: ['Bad item.'] } },
      });
    });

    it('shows the rule message when the error does not carry the list', () => {
      expect(toErrorTree([listError({ value: undefined })])).toEqual({
        codes: { $: ['Whatever the message says.'] },
      });
    });

    it('drops what was found inside an element that is itself refused', () => {
      const inner = Object.assign(new ValidationError(), {
        property: '0',
        constraints: { presence: MSG.required },
        children: [],
      });
      const element = Object.assign(new ValidationError(), {
        property: '1',
        children: [inner],
      });
      expect(toErrorTree([listError({ value: ['ok', 'bad'], children: [element] })])).toEqual({
        codes: { '1': { $: ['Bad item.'] } },
      });
    });
  });
});
