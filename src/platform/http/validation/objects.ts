import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { MSG } from '../../kernel/messages';
import { api, FieldOpts, isPlainObject, presenceDecorators, rule, typeRule } from './base';
import { fastTransform, presentThen, withFastCheck } from './fast-path';

export interface NestedOpts extends FieldOpts {
  description?: string;
}

/** One nested request object, validated by its own DTO class. For a list of them: NestedListField. */
export function NestedField(
  type: () => new () => object,
  opts: NestedOpts = {},
): PropertyDecorator {
  return applyDecorators(
    ...withFastCheck(
      [
        ...presenceDecorators(opts),
        typeRule(isPlainObject, MSG.object),
        ValidateNested(),
        Type(type),
        api(opts, { type: type() }),
      ],
      // The fast path's check (fast-path.ts): the nested DTO's own fast path.
      presentThen(opts, (value) => fastTransform(type(), value)),
    ),
  );
}

/** A free-form JSON object (for example claim `metadata`), bounded in serialised size. */
export function JsonObjectField(opts: FieldOpts & { maxBytes: number }): PropertyDecorator {
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
