import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { ValidationFailed } from '@/platform/kernel/errors';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';

/** The production pipe's full path only (Nest's own transform, without the fast path): the DTO, or the error tree. */
export function fullPathOf(metatype: new () => object): (value: unknown) => Promise<unknown> {
  const pipe = createValidationPipe();
  const meta: ArgumentMetadata = { type: 'body', metatype: metatype as never };
  return async (value) => {
    try {
      return await ValidationPipe.prototype.transform.call(pipe, value, meta);
    } catch (e) {
      if (e instanceof ValidationFailed) return e.errors;
      throw e;
    }
  };
}
