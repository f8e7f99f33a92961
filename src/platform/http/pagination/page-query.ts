import { IntField, StringField } from '@/platform/http/validation/fields';
import { ApiNullable } from '@/platform/http/api-docs';

/** A list's page size: `?limit=` when absent, its largest, and the example the document shows. */
export interface PageSize {
  readonly default: number;
  readonly max: number;
  readonly example: number;
}

/**
 * Every page size of the API, one table (docs/api.md, Conventions: Pagination): a list's query
 * names its row, never a number (lint: lists/page-size).
 */
export const PAGE_SIZES = {
  /** The API's lists: claims, remittances, patients, appointments, audit events, plan designs, verification tasks, webhook deliveries. */
  list: { default: 50, max: 200, example: 50 },
  /** The items of an eligibility batch. */
  batchItems: { default: 100, max: 1_000, example: 100 },
} as const satisfies Record<string, PageSize>;

/**
 * The two query fields of every list, one definition each.
 * `?limit=`: the page size, 1 to `max`, `default` when absent (the service applies it).
 * `described: false` leaves the document's description out, as the webhook deliveries' and
 * verification tasks' lists have always printed it.
 */
export function PageSizeField(size: PageSize, opts?: { described?: false }): PropertyDecorator;
/** The page size by its numbers: the form PAGE_SIZES replaces (lint refuses it outside this folder). */
export function PageSizeField(
  defaultSize: number,
  max: number,
  example?: number,
): PropertyDecorator;
export function PageSizeField(
  size: PageSize | number,
  second?: number | { described?: false },
  example?: number,
): PropertyDecorator {
  const {
    default: fallback,
    max,
    example: shown,
  } = typeof size === 'number'
    ? { default: size, max: second as number, example: example ?? 50 }
    : size;
  const described = typeof second === 'object' ? second.described !== false : true;
  return IntField({
    acceptString: true,
    min: 1,
    max,
    example: shown,
    description: described ? `Page size (default ${fallback}, at most ${max}).` : undefined,
  });
}

/**
 * `?cursor=`: the previous page's `next_cursor`; absent or empty for the first page. With an
 * `example`, the cursor is documented by it alone and an empty one is refused (the webhook
 * deliveries' and verification tasks' lists).
 */
export function PageCursorField(example?: string): PropertyDecorator {
  return example === undefined
    ? StringField({
        maxLength: 200,
        allowBlank: true,
        description: '`next_cursor` of the previous page.',
      })
    : StringField({ maxLength: 200, example });
}

/** A list's `next_cursor`: what `?cursor=` takes for the next page; null on the last page. */
export function NextCursorDoc(
  example: string | null = null,
  param = '`cursor`',
): PropertyDecorator {
  return ApiNullable('string', {
    example,
    description: `Pass as ${param} for the next page; null on the last page.`,
  });
}
