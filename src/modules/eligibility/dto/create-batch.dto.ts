import { IntField, NestedListField, StringField } from '@/common/validation/fields';
import { CreateEligibilityDto } from './create-eligibility.dto';

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
  @IntField({
    acceptString: true,
    min: 1,
    max: MAX_BATCH_PAGE_SIZE,
    example: 100,
    description: `Page size (default ${DEFAULT_BATCH_PAGE_SIZE}, at most ${MAX_BATCH_PAGE_SIZE}).`,
  })
  limit?: number | null;

  @StringField({
    maxLength: 200,
    allowBlank: true,
    description: '`next_cursor` of the previous page.',
  })
  cursor?: string | null;
}
