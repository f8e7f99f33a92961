import { PAGE_SIZES, PageCursorField, PageSizeField } from './page-query';

/** The page of the API's lists (docs/api.md, Conventions: Pagination): 50 unless asked, at most 200. */
export const LIST_DEFAULT_PAGE_SIZE = PAGE_SIZES.list.default;

/**
 * `?limit=&cursor=`: the page of a list, the whole query of one without a filter (claims,
 * remittances); a list with filters extends it (patients, audit events) or, when its filters
 * come first, writes the same two fields after them.
 */
export class ListQuery {
  @PageSizeField(PAGE_SIZES.list)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
