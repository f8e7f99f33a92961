import { StringListField } from '@/platform/http/validation/fields';

/** scheme://host[:port], the form a CSP frame-ancestors source takes for an origin. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** The embedding settings form (web only: the origins allowed to frame the application). */
export class EmbeddingSettingsDto {
  @StringListField({
    required: true,
    maxItems: 20,
    itemMaxLength: 300,
    itemPattern: ORIGIN,
    itemPatternMessage: 'Not an origin (use scheme://host[:port]).',
    example: ['https://pms.example.com'],
  })
  frame_ancestors: string[];
}
