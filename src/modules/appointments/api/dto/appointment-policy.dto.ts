import { ApiProperty } from '@nestjs/swagger';
import {
  BoolField,
  IntField,
  IntListField,
  StringListField,
} from '@/platform/http/validation/fields';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '../../domain/appointment-words';

/**
 * An account's appointment policy (docs/api.md, Appointments): when the coverage of its
 * appointments is checked. The body of its PUT, every field required (it replaces the policy).
 */
export class AppointmentPolicyDto {
  @BoolField({
    required: true,
    example: true,
    description: 'Check an appointment as soon as it is booked.',
  })
  on_booking: boolean;

  @IntListField({
    required: true,
    maxItems: 5,
    min: 0,
    max: 30,
    unique: true,
    example: [3],
    description: 'Check this many days before the appointment: up to 5 values, 0–30.',
  })
  days_before: number[];

  @IntListField({
    required: true,
    maxItems: 5,
    min: 1,
    max: 72,
    unique: true,
    example: [24],
    description: 'Check this many hours before the appointment: up to 5 values, 1–72.',
  })
  hours_before: number[];

  @IntField({
    required: true,
    min: 1,
    max: 720,
    example: 48,
    description: 'How long (hours, 1–720) an answer is fresh; an older one is `stale`.',
  })
  freshness_hours: number;

  @StringListField({
    required: true,
    maxItems: APPOINTMENT_STATUSES.length,
    itemMaxLength: 16,
    choices: APPOINTMENT_STATUSES,
    unique: true,
    example: ['booked', 'arrived'],
    description: 'Only appointments in these statuses are checked.',
  })
  statuses: AppointmentStatus[];
}

/** The policy as answered (the defaults until the account PUTs one). */
export class AppointmentPolicyResponse {
  @ApiProperty({ example: true }) on_booking: boolean;

  @ApiProperty({ type: 'array', items: { type: 'integer' }, example: [3] })
  days_before: number[];

  @ApiProperty({ type: 'array', items: { type: 'integer' }, example: [24] })
  hours_before: number[];

  @ApiProperty({ type: 'integer', example: 48 }) freshness_hours: number;

  @ApiProperty({
    type: [String],
    enum: APPOINTMENT_STATUSES,
    example: ['booked', 'arrived'],
  })
  statuses: AppointmentStatus[];
}
