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

/** Rows a list page shows at a time: the `limit` its API query is bound with. */
export const LIST_PAGE_SIZE = '25';

/** One page of a cursor-paged list, as the API's list routes answer it. */
export interface ListPage<T> {
  result: T[];
  next_cursor: string | null;
}

/**
 * Loads one page of a list page: its filters and cursor bound by the API route's query DTO, with
 * the pages' page size. A query the API would refuse (a malformed filter, a stale cursor) finds
 * nothing here rather than an error page.
 */
export async function listPage<Q extends object, T>(
  dto: Type<Q>,
  filters: Record<string, unknown>,
  load: (query: Q) => Promise<ListPage<T>>,
  size = LIST_PAGE_SIZE,
): Promise<ListPage<T>> {
  try {
    return await load(await bindForm(dto, { ...filters, limit: size }));
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    return { result: [], next_cursor: null };
  }
}

/** A list page's filters from its query string: each one as typed, or blank. */
export function listFilters<K extends string>(
  raw: Record<string, unknown>,
  ...keys: K[]
): Record<K, string> {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return Object.fromEntries(keys.map((k) => [k, text(raw[k])])) as Record<K, string>;
}

/** The query strings of a filtered list's first and next pages: its filters kept, blanks left out. */
export function pageQueries(
  filters: Record<string, string>,
  nextCursor: string | null,
): { nextPageQuery: string; firstPageQuery: string } {
  const params = (cursor: string) =>
    new URLSearchParams(Object.entries({ ...filters, cursor }).filter(([, v]) => v)).toString();
  return { nextPageQuery: params(nextCursor ?? ''), firstPageQuery: params('') };
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
