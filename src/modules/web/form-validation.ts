import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ErrorTree } from '@/common/errors';
import { toErrorTree } from '@/common/validation/validation-errors';

/**
 * Runs the API's request DTO rules on a web form, so a form and the API refuse the same input
 * with the same messages. Empty form fields count as absent.
 */
export async function validateForm<T extends object>(
  dto: new () => T,
  plain: Record<string, unknown>,
): Promise<{ value: T; errors: ErrorTree | null }> {
  const cleaned = Object.fromEntries(
    Object.entries(plain).filter(
      ([key, v]) => key !== '_csrf' && !(typeof v === 'string' && v.trim() === ''),
    ),
  );
  const value = plainToInstance(dto, cleaned, { enableImplicitConversion: false });
  const failures = await validate(value, { whitelist: true, forbidUnknownValues: false });
  return { value, errors: failures.length > 0 ? toErrorTree(failures) : null };
}

/** A form's string fields, trimmed; anything else (arrays from repeated fields) dropped. */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body as Record<string, unknown>))
      if (typeof v === 'string') out[k] = v;
  }
  return out;
}
