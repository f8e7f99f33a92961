import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { MSG } from '../../kernel/messages';
import { api, FieldOpts, isPlainObject, presenceDecorators, rule, typeRule } from './base';
import { EachItem, ItemCheck } from './item-errors';
import { unstorableText } from './strings';
import { presentThen, REFUSE, withFastCheck } from './fast-path';

export interface ListOpts extends FieldOpts {
  minItems?: number;
  maxItems: number;
}

function listDecorators(opts: ListOpts): PropertyDecorator[] {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    typeRule((v) => Array.isArray(v), MSG.list),
  ];
  if (opts.minItems !== undefined) {
    const min = opts.minItems;
    decorators.push(
      rule('minItems', (v) => Array.isArray(v) && v.length >= min, MSG.minItems(min)),
    );
  }
  const max = opts.maxItems;
  decorators.push(rule('maxItems', (v) => Array.isArray(v) && v.length <= max, MSG.maxItems(max)));
  return decorators;
}

/** The element check of every list of objects: anything but a JSON object is refused. */
export const objectItem = (item: unknown): string | null =>
  isPlainObject(item) ? null : MSG.object;

/**
 * A list of request objects, each validated by its DTO class; use it for every list of objects.
 * Why: class-validator walks into a nested list as if it were the list (`[[{...}]]` passes), so
 * here every element that is not a JSON object is refused under its index.
 */
export function NestedListField(type: () => new () => object, opts: ListOpts): PropertyDecorator {
  return applyDecorators(
    ...listDecorators(opts),
    EachItem(objectItem, opts.maxItems),
    ValidateNested({ each: true }),
    Type(type),
    api(opts, { type: [type()] as never, minItems: opts.minItems, maxItems: opts.maxItems }),
  );
}

export interface StringListOpts extends ListOpts {
  itemMaxLength: number;
  itemPattern?: RegExp;
  itemPatternMessage?: string;
  unique?: boolean;
  choices?: readonly string[];
}

/** A list of strings; each element's problem is reported under its index (see item-errors.ts). */
export function StringListField(opts: StringListOpts): PropertyDecorator {
  const itemError = (item: unknown): string | readonly string[] | null => {
    if (typeof item !== 'string') return MSG.string;
    if (unstorableText(item)) return unstorableText(item);
    if (item.trim().length === 0) return MSG.blank;
    if ([...item].length > opts.itemMaxLength) return MSG.maxLength(opts.itemMaxLength);
    if (opts.choices && !opts.choices.includes(item))
      return [MSG.choice(item), MSG.allowedChoices(opts.choices)];
    if (opts.itemPattern && !opts.itemPattern.test(item))
      return opts.itemPatternMessage ?? 'Invalid format.';
    return null;
  };
  return scalarList(opts, itemError, String, {
    type: 'string',
    maxLength: opts.itemMaxLength,
    enum: opts.choices ? [...opts.choices] : undefined,
  });
}

export interface IntListOpts extends ListOpts {
  /** Each element's bounds. */
  min: number;
  max: number;
  unique?: boolean;
}

/** A list of integers (the appointment policy's `days_before`), elements checked as IntField. */
export function IntListField(opts: IntListOpts): PropertyDecorator {
  const itemError = (item: unknown): string | null => {
    if (typeof item !== 'number' || !Number.isSafeInteger(item)) return MSG.integer;
    if (item < opts.min) return `Ensure this value is greater than or equal to ${opts.min}.`;
    if (item > opts.max) return `Ensure this value is less than or equal to ${opts.max}.`;
    return null;
  };
  return scalarList(opts, itemError, Number, {
    type: 'integer',
    minimum: opts.min,
    maximum: opts.max,
  });
}

/**
 * A list of small values other fields do not cover (pairs of codes: a price list's `in_lieu_of`),
 * each element checked by `itemError` and documented by `items`.
 */
export function CheckedListField(
  opts: ListOpts & { itemError: (item: unknown) => string | null; items: object },
): PropertyDecorator {
  return scalarList(opts, opts.itemError, Array, opts.items);
}

/** A list of scalars: each element's problem under its index, optional uniqueness. */
function scalarList(
  opts: ListOpts & { unique?: boolean },
  itemError: ItemCheck,
  type: typeof String | typeof Number | typeof Array,
  items: object,
): PropertyDecorator {
  const decorators = listDecorators(opts);
  decorators.push(EachItem(itemError, opts.maxItems));
  if (opts.unique) {
    decorators.push(
      rule(
        'unique',
        (v) => !Array.isArray(v) || new Set(v).size === v.length,
        'Duplicate values are not allowed.',
      ),
    );
  }
  decorators.push(
    api(opts, {
      type: [type] as never,
      minItems: opts.minItems,
      maxItems: opts.maxItems,
      items: items as never,
    }),
  );
  // The fast path's check (fast-path.ts): the list rules above and every element's.
  const fast = presentThen(opts, (value) => {
    if (!Array.isArray(value)) return REFUSE;
    if (value.length < (opts.minItems ?? 0) || value.length > opts.maxItems) return REFUSE;
    for (let i = 0; i < value.length; i++)
      if (!(i in value) || itemError(value[i]) !== null) return REFUSE;
    if (opts.unique && new Set(value).size !== value.length) return REFUSE;
    return value.map((v: unknown) => (Array.isArray(v) ? [...v] : v));
  });
  return applyDecorators(...withFastCheck(decorators, fast));
}
