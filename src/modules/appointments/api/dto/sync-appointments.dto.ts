import { ApiProperty } from '@nestjs/swagger';
import { TimestampField } from '@/platform/http/validation/fields';
import { LocationCodeField } from '@/modules/accounts';
import { EXTERNAL_ID, MAX_SYNC_ITEMS, MAX_SYNC_WINDOW_DAYS } from '../../domain/appointment-words';
import { UpsertAppointmentDto } from './upsert-appointment.dto';

/**
 * The window of a sync (docs/api.md, Appointments): what the service validates as a whole. The
 * `appointments` are validated one by one (AppointmentIntake), so a bad item refuses only itself.
 */
export class SyncWindowDto {
  @TimestampField({
    required: true,
    example: '2026-11-24T00:00:00-06:00',
    description: 'Start of the window (included), RFC 3339 with its offset.',
  })
  from: string;

  @TimestampField({
    required: true,
    example: '2026-11-25T00:00:00-06:00',
    description: `End of the window (excluded): after \`from\`, at most ${MAX_SYNC_WINDOW_DAYS} days later.`,
  })
  to: string;

  @LocationCodeField(
    'Only appointments of this location are cancelled when not listed; absent: every location.',
  )
  location_code?: string | null;
}

/** One item of a sync: an upsert body with its `external_id` (OpenAPI only). */
export class SyncAppointmentItemDto extends UpsertAppointmentDto {
  @ApiProperty({
    required: true,
    maxLength: 64,
    pattern: EXTERNAL_ID.source,
    example: 'EPIC-APPT-20261124-0042',
    description: "The practice system's own id: 1–64 printable ASCII characters.",
  })
  external_id: string;
}

/** The body of `POST .../appointments/sync/` (OpenAPI; validated by AppointmentsSync). */
export class SyncAppointmentsDto extends SyncWindowDto {
  @ApiProperty({
    type: [SyncAppointmentItemDto],
    maxItems: MAX_SYNC_ITEMS,
    description:
      `Up to ${MAX_SYNC_ITEMS.toLocaleString('en-US')} appointments, each validated as a single ` +
      'PUT; an item with errors is reported in `errors` by its index and the others are stored.',
  })
  appointments: SyncAppointmentItemDto[];
}

/** An item of a sync that was not stored, and why (the error tree a single PUT would answer). */
export class SyncItemErrors {
  @ApiProperty({
    type: 'integer',
    example: 17,
    description: 'Index of the item in `appointments`.',
  })
  index: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      starts_at: {
        $: ['Enter a date and time with its offset (RFC 3339), e.g. 2026-11-24T15:04:00-06:00.'],
      },
    },
    description: 'The field errors, nested like the item (docs/api.md, Errors).',
  })
  errors: Record<string, unknown>;
}

/** What a sync did. */
export class SyncResultResponse {
  @ApiProperty({
    type: 'integer',
    example: 12,
    description: 'Appointments stored for the first time.',
  })
  created: number;

  @ApiProperty({ type: 'integer', example: 3, description: 'Stored appointments that changed.' })
  updated: number;

  @ApiProperty({
    type: 'integer',
    example: 140,
    description:
      'Valid items that changed nothing: the same as stored, or an older `source_updated_at`.',
  })
  unchanged: number;

  @ApiProperty({
    type: 'integer',
    example: 2,
    description: 'Appointments of the window (and location) not listed that became `cancelled`.',
  })
  cancelled: number;

  @ApiProperty({ type: [SyncItemErrors], description: 'The items not stored, by index.' })
  errors: SyncItemErrors[];
}
