import { StringField } from '@/platform/http/validation/fields';
import { PAGE_SIZES, PageCursorField, PageSizeField } from '@/platform/http/pagination/page-query';
import { KNOWN_INSURER_CODES } from '@/modules/insurers';

/** `GET /api/auth/v1/plan-designs/` (docs/api.md, Plan designs): its filters and page. */
export class PlanDesignListQuery {
  @StringField({
    choices: KNOWN_INSURER_CODES,
    example: 'insurer:vision:vsp',
    description: 'Only designs of this insurer.',
  })
  insurer_code?: string | null;

  @StringField({
    maxLength: 200,
    allowBlank: true,
    example: 'acme',
    description: 'Part of the plan name, group or group id, any case.',
  })
  q?: string | null;

  @PageSizeField(PAGE_SIZES.list)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
