import { IntField, StringField } from '@/common/validation/fields';

export class ListRemittancesQuery {
  @IntField({
    acceptString: true,
    min: 1,
    max: 200,
    example: 50,
    description: 'Page size (default 50, at most 200).',
  })
  limit?: number | null;

  @StringField({
    maxLength: 200,
    allowBlank: true,
    description: '`next_cursor` of the previous page.',
  })
  cursor?: string | null;
}
