import { IntField, StringField } from '@/platform/http/validation/fields';
import { ApiNullable } from '@/platform/http/api-docs';

/**
 * The two query fields of every list (docs/api.md, Conventions: Pagination), one definition each.
 * `?limit=`: the page size, 1 to `max`, `defaultSize` when absent (the service applies it).
 */
export function PageSizeField(defaultSize: number, max: number, example = 50): PropertyDecorator {
  return IntField({
    acceptString: true,
    min: 1,
    max,
    example,
    description: `Page size (default ${defaultSize}, at most ${max}).`,
  });
}

/** `?cursor=`: the previous page's `next_cursor`; absent or empty for the first page. */
export function PageCursorField(): PropertyDecorator {
  return StringField({
    maxLength: 200,
    allowBlank: true,
    description: '`next_cursor` of the previous page.',
  });
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
