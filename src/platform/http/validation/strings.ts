import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { MSG } from '../../kernel/messages';
import { api, FieldOpts, presenceDecorators, rule, typeRule } from './base';
import { presentThen, REFUSE, withFastCheck } from './fast-path';

export interface StringOpts extends FieldOpts {
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
        () => [MSG.allowedChoices(choices)],
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
  return applyDecorators(...withFastCheck(decorators, fastString(opts)));
}

/** The fast path's check (fast-path.ts): the rules above, on the value as the Transform leaves it. */
function fastString(opts: StringOpts) {
  const { maxLength, pattern, choices } = opts;
  // A global or sticky pattern keeps state between tests: the full path alone tests it.
  const stateful = Boolean(pattern && (pattern.global || pattern.sticky));
  return presentThen(opts, (value) => {
    if (typeof value !== 'string' || stateful) return REFUSE;
    const text = opts.trim !== false ? value.trim() : value;
    if (unstorableText(text) !== null) return REFUSE;
    if (!opts.allowBlank && text.length === 0) return REFUSE;
    if (maxLength !== undefined && text.length > maxLength && [...text].length > maxLength)
      return REFUSE;
    if (pattern && text !== '' && !pattern.test(text)) return REFUSE;
    if (choices && !choices.includes(text)) return REFUSE;
    return text;
  });
}

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value);
}

export function EmailField(opts: FieldOpts = {}): PropertyDecorator {
  return applyDecorators(
    ...presenceDecorators(opts),
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    typeRule((v) => typeof v === 'string', MSG.string),
    rule('blank', (v) => typeof v === 'string' && v.length > 0, MSG.blank),
    rule('email', (v) => v === '' || isEmail(v), MSG.email),
    api(opts, { type: String, format: 'email', maxLength: 254 }),
  );
}
