import { PageCursorField, PageSizeField } from './page-query';

/** The page of the API's lists (docs/api.md, Conventions: Pagination): 50 unless asked, at most 200. */
export const LIST_DEFAULT_PAGE_SIZE = 50;
export const LIST_MAX_PAGE_SIZE = 200;

/** `?limit=&cursor=`: the whole query of a list that has no filter (claims, remittances). */
export class ListQuery {
  @PageSizeField(LIST_DEFAULT_PAGE_SIZE, LIST_MAX_PAGE_SIZE)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
