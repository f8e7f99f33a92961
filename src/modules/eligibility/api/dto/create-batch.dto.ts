import { NestedListField, StringField } from '@/platform/http/validation/fields';
import { CreateEligibilityDto } from './create-eligibility.dto';
import { PageCursorField, PageSizeField } from '@/platform/http/pagination/page-query';

export const MAX_BATCH_ITEMS = 10_000;
export const DEFAULT_BATCH_PAGE_SIZE = 100;
export const MAX_BATCH_PAGE_SIZE = 1_000;

/** docs/api.md, Batches: up to 10,000 eligibility requests, each validated exactly as a single one. */
export class CreateBatchDto {
  @NestedListField(() => CreateEligibilityDto, {
    required: true,
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description:
      'Eligibility request bodies (as for POST /api/auth/v1/eligibility/), 1–10,000. Any invalid ' +
      'item refuses the whole batch; errors are keyed by index (`errors.items.17.patient.dob.$`).',
  })
  items: CreateEligibilityDto[];

  @StringField({
    maxLength: 256,
    example: 'schedule-2026-11-22',
    description:
      'Your id for this batch, unique in your account. Generated (32 hex characters) when absent.',
  })
  batch_uid?: string | null;
}

export class BatchItemsQuery {
  @PageSizeField(DEFAULT_BATCH_PAGE_SIZE, MAX_BATCH_PAGE_SIZE, 100)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
