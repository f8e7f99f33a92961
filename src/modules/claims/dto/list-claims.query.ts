import { IntField, StringField } from '@/common/validation/fields';

export const DEFAULT_CLAIM_PAGE_SIZE = 50;
export const MAX_CLAIM_PAGE_SIZE = 200;

export class ListClaimsQuery {
  @IntField({
    acceptString: true,
    min: 1,
    max: MAX_CLAIM_PAGE_SIZE,
    example: 50,
    description: `Page size (default ${DEFAULT_CLAIM_PAGE_SIZE}, at most ${MAX_CLAIM_PAGE_SIZE}).`,
  })
  limit?: number | null;

  @StringField({
    maxLength: 200,
    allowBlank: true,
    description: '`next_cursor` of the previous page.',
  })
  cursor?: string | null;
}
