import type { Type } from '@nestjs/common';
import type { Response } from 'express';
import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';

/**
 * The API's own pipe (the one registered as APP_PIPE): a form bound with it is refused by the same
 * DTO rules, with the same messages and the same error tree, as the API route it mirrors.
 */
const apiPipe = createValidationPipe();

/** A form's string fields; anything else (arrays from repeated fields) dropped. */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body as Record<string, unknown>))
      if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export interface BindOptions {
  /**
   * A form cannot leave a field out, so by default a blank field counts as absent (an optional
   * field is simply not given; a required one is "This field is required.", as in the API).
   * An edit form whose every field means "set to this" keeps blanks: a cleared URL is then
   * "This field may not be blank." exactly as a PATCH with `""` is.
   */
  keepBlank?: boolean;
}

/**
 * Binds a form to a request DTO through the API's ValidationPipe. Throws the API's
 * ValidationFailed on bad input; submitForm shows it on the page.
 */
export async function bindForm<T extends object>(
  dto: Type<T>,
  input: Record<string, unknown>,
  options: BindOptions = {},
): Promise<T> {
  const plain = options.keepBlank ? definedOnly(input) : withoutBlanks(input);
  return (await apiPipe.transform(plain, { type: 'body', metatype: dto })) as T;
}

/**
 * Runs a form's submission. When it is refused with a ValidationFailed (from bindForm's DTO or
 * from the service, the same error the API answers 400 with), the form's page is rendered again
 * with status 400 and the error tree, which the views show by field (macros.njk `errorsFor`).
 */
export async function submitForm(
  res: Response,
  submit: () => Promise<void>,
  rerender: (errors: ErrorTree) => Promise<void> | void,
): Promise<void> {
  try {
    await submit();
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    res.status(400);
    await rerender(e.errors);
  }
}

/** The values of a form's checkboxes of one name (a repeated field is an array, one a string). */
export function checkedValues(body: unknown, name: string): string[] {
  const raw = (body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
}

function definedOnly(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

function withoutBlanks(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(input)) {
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
    out[key] =
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? withoutBlanks(v as Record<string, unknown>)
        : v;
  }
  return out;
}
