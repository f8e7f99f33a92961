import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { MSG } from '../../kernel/messages';
import {
  decimalPlaces,
  integerDigits,
  isDecimalInput,
  normaliseDecimal,
} from '../../kernel/decimal';
import { api, FieldOpts, presenceDecorators, rule, typeRule } from './base';
import { presentThen, REFUSE, withFastCheck } from './fast-path';

/** Integers, money (decimal strings) and booleans. */

export interface IntOpts extends FieldOpts {
  min?: number;
  max?: number;
  /** Accept "3" as well as 3 (converted to a number). */
  acceptString?: boolean;
  /**
   * OpenAPI: a body field, documented as an integer or an integer string (with acceptString);
   * a query parameter is a string on the wire anyway and is documented as an integer.
   */
  inBody?: boolean;
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
  const integer = { type: 'integer', minimum: opts.min, maximum: opts.max };
  const stringForm = { type: 'string', pattern: '^\\s*-?\\d{1,15}\\s*$', example: '2' };
  decorators.push(
    api(
      opts,
      (opts.acceptString && opts.inBody ? { oneOf: [integer, stringForm] } : integer) as never,
    ),
  );
  return applyDecorators(...withFastCheck(decorators, fastInt(opts)));
}

/**
 * The fast path's check (fast-path.ts): a number that is a safe integer within the bounds, as
 * the DTO holds it; anything else (a string form included) takes the full path.
 */
function fastInt(opts: IntOpts) {
  const { min, max } = opts;
  return presentThen(opts, (v) =>
    typeof v === 'number' &&
    Number.isSafeInteger(v) &&
    (min === undefined || v >= min) &&
    (max === undefined || v <= max)
      ? v
      : REFUSE,
  );
}

export interface DecimalOpts extends FieldOpts {
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
    api(opts, {
      oneOf: [
        { type: 'string', pattern: '^\\d{1,10}(\\.\\d{1,4})?$', example: '12.22' },
        { type: 'number', minimum: 0, maximum: 9999999999.9999, example: 12.22 },
      ],
    }),
  );
}

export function BoolField(opts: FieldOpts = {}): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    typeRule((v) => typeof v === 'boolean', MSG.boolean),
    api(opts, { type: Boolean }),
  );
}
