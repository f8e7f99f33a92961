import { PageCursorField, PageSizeField } from '@/common/pagination/page-query';

export const DEFAULT_CLAIM_PAGE_SIZE = 50;
export const MAX_CLAIM_PAGE_SIZE = 200;

export class ListClaimsQuery {
  @PageSizeField(DEFAULT_CLAIM_PAGE_SIZE, MAX_CLAIM_PAGE_SIZE)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
