import { PageCursorField, PageSizeField } from '@/common/pagination/page-query';

export class ListRemittancesQuery {
  @PageSizeField(50, 200)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
