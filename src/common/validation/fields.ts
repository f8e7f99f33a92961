import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsOptional,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { MSG } from '../messages';
import { decimalPlaces, integerDigits, isDecimalInput, normaliseDecimal } from '../decimal';

/**
 * Field decorators for request DTOs. Each one sets the class-validator rules (with the DRF-style
 * messages of CONTRACT §3) and the OpenAPI description in one place, so a DTO field reads as one
 * line and the docs cannot drift from the validation.
 *
 * Constraint names matter: the exception factory shows only `presence` when it fails, then only
 * `type`, and otherwise every failed rule (see validation-errors.ts).
 */

interface Common {
  /** Required fields must be present and non-null. Default false. */
  required?: boolean;
  /** Optional fields accept null (meaning "unset") unless nullable is false. Default true. */
  nullable?: boolean;
  description?: string;
  example?: unknown;
}

const presence = (required: boolean, nullable: boolean) =>
  ValidateBy({
    name: 'presence',
    validator: {
      validate: (value: unknown) =>
        required ? value !== undefined && value !== null : value !== null || nullable,
      defaultMessage: (args?: ValidationArguments) =>
        (args?.object as Record<string, unknown>)?.[args?.property ?? ''] === undefined
          ? MSG.required
          : MSG.notNull,
    },
  });

/** Presence rules plus the short-circuit that lets optional fields skip the other validators. */
function presenceDecorators(opts: Common): PropertyDecorator[] {
  const required = opts.required ?? false;
  const nullable = opts.nullable ?? !required;
  if (required) return [presence(true, false)];
  if (nullable) return [IsOptional()];
  // Optional but not nullable: absent is fine, null is an error.
  return [
    ValidateIf((o: Record<string, unknown>, v: unknown) => v !== undefined),
    presence(false, false),
  ];
}

function api(opts: Common, extra: ApiPropertyOptions): PropertyDecorator {
  const required = opts.required ?? false;
  return ApiProperty({
    required,
    nullable: !required && (opts.nullable ?? true),
    description: opts.description,
    example: opts.example,
    ...extra,
  } as ApiPropertyOptions);
}

const typeRule = (check: (value: unknown) => boolean, message: string) =>
  ValidateBy({ name: 'type', validator: { validate: check, defaultMessage: () => message } });

const rule = (
  name: string,
  check: (value: unknown) => boolean,
  message: string | ((v: unknown) => string),
) =>
  ValidateBy({
    name,
    validator: {
      validate: check,
      defaultMessage: (args?: ValidationArguments) =>
        typeof message === 'function' ? message(args?.value) : message,
    },
  });

export interface StringOpts extends Common {
  maxLength?: number;
  allowBlank?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
  choices?: readonly string[];
  /** Trim surrounding whitespace before validation. Default true. */
  trim?: boolean;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The message for text PostgreSQL cannot store (U+0000, a lone UTF-16 surrogate), or null. */
export function unstorableText(value: string): string | null {
  if (value.includes('\u0000')) return MSG.nullCharacters;
  if (LONE_SURROGATE.test(value)) return MSG.surrogates;
  return null;
}

export function StringField(opts: StringOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    Transform(({ value }) =>
      typeof value === 'string' && opts.trim !== false ? value.trim() : value,
    ),
    typeRule((v) => typeof v === 'string', MSG.string),
    // PostgreSQL cannot store U+0000 or a lone surrogate: refuse them here, not in the INSERT.
    rule(
      'text',
      (v) => typeof v !== 'string' || unstorableText(v) === null,
      (v) => (typeof v === 'string' ? (unstorableText(v) ?? '') : ''),
    ),
  ];
  if (!opts.allowBlank)
    decorators.push(rule('blank', (v) => typeof v === 'string' && v.length > 0, MSG.blank));
  if (opts.maxLength !== undefined) {
    const max = opts.maxLength;
    decorators.push(
      rule('maxLength', (v) => typeof v === 'string' && [...v].length <= max, MSG.maxLength(max)),
    );
  }
  if (opts.pattern) {
    const pattern = opts.pattern;
    decorators.push(
      rule(
        'pattern',
        (v) => typeof v === 'string' && (v === '' || pattern.test(v)),
        opts.patternMessage ?? 'Invalid format.',
      ),
    );
  }
  if (opts.choices) {
    const choices = opts.choices;
    decorators.push(
      rule(
        'choice',
        (v) => typeof v === 'string' && choices.includes(v),
        (v) => MSG.choice(v),
      ),
    );
  }
  decorators.push(
    api(opts, {
      type: String,
      maxLength: opts.maxLength,
      enum: opts.choices ? [...opts.choices] : undefined,
      pattern: opts.pattern?.source,
    }),
  );
  return applyDecorators(...decorators);
}

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value);
}

export function EmailField(opts: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    typeRule((v) => typeof v === 'string', MSG.string),
    rule('blank', (v) => typeof v === 'string' && v.length > 0, MSG.blank),
    rule('email', (v) => v === '' || isEmail(v), MSG.email),
    api(opts, { type: String, format: 'email', maxLength: 254 }),
  );
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form (2023-02-30 is refused). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    y >= 1
  );
}

export function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

export interface DateOpts extends Common {
  notFuture?: boolean;
  min?: string;
}

export function DateField(opts: DateOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    typeRule(isIsoDate, MSG.date),
  ];
  if (opts.notFuture) {
    decorators.push(
      rule('notFuture', (v) => isIsoDate(v) && v <= todayIso(), 'Date may not be in the future.'),
    );
  }
  if (opts.min) {
    const min = opts.min;
    decorators.push(
      rule('minDate', (v) => isIsoDate(v) && v >= min, `Date may not be before ${min}.`),
    );
  }
  decorators.push(api(opts, { type: String, format: 'date' }));
  return applyDecorators(...decorators);
}

export interface IntOpts extends Common {
  min?: number;
  max?: number;
  /** Accept "3" as well as 3 (converted to a number). */
  acceptString?: boolean;
}

export function IntField(opts: IntOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [...presenceDecorators(opts)];
  if (opts.acceptString) {
    decorators.push(
      Transform(({ value }) =>
        typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value) ? Number(value) : value,
      ),
    );
  }
  decorators.push(typeRule((v) => typeof v === 'number' && Number.isSafeInteger(v), MSG.integer));
  if (opts.min !== undefined) {
    const min = opts.min;
    decorators.push(
      rule(
        'min',
        (v) => typeof v === 'number' && v >= min,
        `Ensure this value is greater than or equal to ${min}.`,
      ),
    );
  }
  if (opts.max !== undefined) {
    const max = opts.max;
    decorators.push(
      rule(
        'max',
        (v) => typeof v === 'number' && v <= max,
        `Ensure this value is less than or equal to ${max}.`,
      ),
    );
  }
  decorators.push(
    api(opts, { type: Number, format: 'int64', minimum: opts.min, maximum: opts.max }),
  );
  return applyDecorators(...decorators);
}

export function BoolField(opts: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    typeRule((v) => typeof v === 'boolean', MSG.boolean),
    api(opts, { type: Boolean }),
  );
}

export interface DecimalOpts extends Common {
  min?: string;
  maxDigits?: number;
}

/**
 * Money: accepts "12.2", "12.22" or 12.22 and hands the service a normalised decimal string;
 * never a float.
 */
export function DecimalField(opts: DecimalOpts = {}): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    Transform(({ value }) => (isDecimalInput(value) ? normaliseDecimal(value) : value)),
    typeRule((v) => typeof v === 'string' && isDecimalInput(v), MSG.number),
    rule(
      'nonNegative',
      (v) => typeof v === 'string' && !v.startsWith('-'),
      'Ensure this value is greater than or equal to 0.',
    ),
    rule(
      'places',
      (v) => typeof v === 'string' && decimalPlaces(v) <= 4,
      'Ensure that there are no more than 4 decimal places.',
    ),
    rule(
      'digits',
      (v) => typeof v === 'string' && integerDigits(v) <= 10,
      'Ensure that there are no more than 10 digits before the decimal point.',
    ),
    api(opts, { type: String, format: 'decimal', pattern: '^\\d{1,10}(\\.\\d{1,4})?$' }),
  );
}

export interface NestedOpts extends Common {
  description?: string;
}

const isPlainObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function NestedField(
  type: () => new () => object,
  opts: NestedOpts = {},
): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    typeRule(isPlainObject, MSG.object),
    ValidateNested(),
    Type(type),
    api(opts, { type: type() }),
  );
}

export interface ListOpts extends Common {
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

export function NestedListField(type: () => new () => object, opts: ListOpts): PropertyDecorator {
  return applyDecorators(
    ...listDecorators(opts),
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

/**
 * A list of strings. Per-item problems are reported under the item's index, like DRF's ListField:
 * `{"codes": {"1": {"$": ["..."]}}}` — produced by the `items` rule's message encoding below.
 */
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
  decorators.push(
    ValidateBy({
      name: 'items',
      validator: {
        // An overlong list is reported by maxItems alone, not item by item (bounded answer).
        validate: (v: unknown) =>
          !Array.isArray(v) ||
          v.length > opts.maxItems ||
          v.every((item) => itemError(item) === null),
        // Encoded as JSON so the exception factory can place each message under its index.
        defaultMessage: (args?: ValidationArguments) => {
          const list = Array.isArray(args?.value) ? (args.value as unknown[]) : [];
          const byIndex: Record<string, string> = {};
          list.forEach((item, i) => {
            const err = itemError(item);
            if (err) byIndex[String(i)] = err;
          });
          return ITEM_ERRORS_PREFIX + JSON.stringify(byIndex);
        },
      },
    }),
  );
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
  return applyDecorators(...decorators);
}

export const ITEM_ERRORS_PREFIX = '\u0000items:';

/** A free-form JSON object (for example claim `metadata`), bounded in serialised size. */
export function JsonObjectField(opts: Common & { maxBytes: number }): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    typeRule(isPlainObject, MSG.object),
    rule(
      'maxBytes',
      (v) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8') <= opts.maxBytes,
      `Ensure this object is no larger than ${opts.maxBytes} bytes as JSON.`,
    ),
    api(opts, { type: 'object', additionalProperties: true }),
  );
}
