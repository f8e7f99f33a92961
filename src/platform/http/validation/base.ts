import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, ValidateBy, ValidateIf, ValidationArguments } from 'class-validator';
import { NULL_ONLY_SCHEMA } from '../api-docs';
import { MSG } from '../../kernel/messages';

/**
 * The pieces every field decorator is built from: presence rules, the `type` rule, named rules
 * and the OpenAPI property. Constraint names matter: the error-tree builder shows only `presence`
 * when it fails, then only `type`, and otherwise every failed rule (see validation-errors.ts).
 */

export interface FieldOpts {
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
export function presenceDecorators(opts: FieldOpts): PropertyDecorator[] {
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

/** The OpenAPI schema: the real type; `nullable` (null in an enum) where null is allowed. */
export function api(opts: FieldOpts, extra: ApiPropertyOptions): PropertyDecorator {
  const required = opts.required ?? false;
  const nullable = !required && (opts.nullable ?? true);
  const { enum: choices, oneOf } = extra as { enum?: unknown[]; oneOf?: object[] };
  return ApiProperty({
    required,
    nullable: nullable && !oneOf ? true : undefined,
    description: opts.description,
    example: opts.example,
    ...extra,
    ...(choices && nullable ? { enum: [...choices, null] } : {}),
    // `nullable` only widens a `type`; alternatives without one list null as an alternative.
    ...(oneOf && nullable ? { oneOf: [...oneOf, { ...NULL_ONLY_SCHEMA }] } : {}),
  } as ApiPropertyOptions);
}

/**
 * Further messages of a failed rule, after its own (docs/api.md, Errors: a second message in the
 * same list says more): the rule's own message stays exactly as the contract has it. The
 * function rides in the constraint's context, as a list's element check does (item-errors.ts),
 * and validation-errors.ts calls it with the value.
 */
export type MoreMessages = (value: unknown) => readonly string[];

/** Constraint context key under which a rule's further messages travel. */
export interface MoreContext {
  more: MoreMessages;
}

export const isMoreContext = (c: unknown): c is MoreContext =>
  typeof c === 'object' && c !== null && typeof (c as MoreContext).more === 'function';

/** The rule that, when it fails, hides every other rule of the field but `presence`. */
export const typeRule = (
  check: (value: unknown) => boolean,
  message: string,
  more?: MoreMessages,
) =>
  ValidateBy(
    { name: 'type', validator: { validate: check, defaultMessage: () => message } },
    more ? { context: { more } satisfies MoreContext } : undefined,
  );

export const rule = (
  name: string,
  check: (value: unknown) => boolean,
  message: string | ((v: unknown) => string),
  more?: MoreMessages,
) =>
  ValidateBy(
    {
      name,
      validator: {
        validate: check,
        defaultMessage: (args?: ValidationArguments) =>
          typeof message === 'function' ? message(args?.value) : message,
      },
    },
    more ? { context: { more } satisfies MoreContext } : undefined,
  );

/** A JSON object (`{...}`), or an instance class-transformer made of one; not null, not a list. */
export const isPlainObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
