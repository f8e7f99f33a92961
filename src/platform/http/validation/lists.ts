import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { MSG } from '../../kernel/messages';
import { api, FieldOpts, isPlainObject, presenceDecorators, rule, typeRule } from './base';
import { EachItem } from './item-errors';
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
 * A list of request objects, each validated by its own DTO class. Use it for EVERY list of
 * objects (claim `services`, batch `items`, estimate `services`, ...), never a hand-written
 * `@ValidateNested({ each: true }) @Type(...)`:
 *
 *     @NestedListField(() => EstimateServiceDto, { required: true, minItems: 1, maxItems: 20 })
 *     services: EstimateServiceDto[];
 *
 * Why: class-validator walks into an element that is itself a list as if it were the list, so
 * `[[]]` passes and `[[{...}]]` is validated as if it were `[{...}]`, and the service then gets a
 * list where it expects an object. Here the `items` rule refuses every element that is not a JSON
 * object, under its index (`{"services": {"0": {"$": ["Invalid data. Expected a dictionary."]}}}`),
 * and the error-tree builder drops whatever class-validator found inside such an element.
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
  const itemError = (item: unknown): string | null => {
    if (typeof item !== 'string') return MSG.string;
    if (unstorableText(item)) return unstorableText(item);
    if (item.trim().length === 0) return MSG.blank;
    if ([...item].length > opts.itemMaxLength) return MSG.maxLength(opts.itemMaxLength);
    if (opts.choices && !opts.choices.includes(item)) return MSG.choice(item);
    if (opts.itemPattern && !opts.itemPattern.test(item))
      return opts.itemPatternMessage ?? 'Invalid format.';
    return null;
  };
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
      type: [String] as never,
      minItems: opts.minItems,
      maxItems: opts.maxItems,
      items: {
        type: 'string',
        maxLength: opts.itemMaxLength,
        enum: opts.choices ? [...opts.choices] : undefined,
      } as never,
    }),
  );
  // The fast path's check (fast-path.ts): the list rules above and every element's.
  const fast = presentThen(opts, (value) => {
    if (!Array.isArray(value)) return REFUSE;
    if (value.length < (opts.minItems ?? 0) || value.length > opts.maxItems) return REFUSE;
    for (let i = 0; i < value.length; i++)
      if (!(i in value) || itemError(value[i]) !== null) return REFUSE;
    if (opts.unique && new Set(value).size !== value.length) return REFUSE;
    return [...value];
  });
  return applyDecorators(...withFastCheck(decorators, fast));
}

export interface IntListOpts extends ListOpts {
  /** Each element's bounds. */
  min: number;
  max: number;
  unique?: boolean;
}

/**
 * A list of integers (the appointment policy's `days_before`); each element's problem is
 * reported under its index with IntField's messages.
 */
export function IntListField(opts: IntListOpts): PropertyDecorator {
  const itemError = (item: unknown): string | null => {
    if (typeof item !== 'number' || !Number.isSafeInteger(item)) return MSG.integer;
    if (item < opts.min) return `Ensure this value is greater than or equal to ${opts.min}.`;
    if (item > opts.max) return `Ensure this value is less than or equal to ${opts.max}.`;
    return null;
  };
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
      type: [Number] as never,
      minItems: opts.minItems,
      maxItems: opts.maxItems,
      items: { type: 'integer', minimum: opts.min, maximum: opts.max } as never,
    }),
  );
  // The fast path's check (fast-path.ts): the list rules above and every element's.
  const fast = presentThen(opts, (value) => {
    if (!Array.isArray(value)) return REFUSE;
    if (value.length < (opts.minItems ?? 0) || value.length > opts.maxItems) return REFUSE;
    for (let i = 0; i < value.length; i++)
      if (!(i in value) || itemError(value[i]) !== null) return REFUSE;
    if (opts.unique && new Set(value).size !== value.length) return REFUSE;
    return [...value];
  });
  return applyDecorators(...withFastCheck(decorators, fast));
}
