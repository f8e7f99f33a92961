import {
  NestedField,
  StringField,
  StringListField,
  TimestampField,
} from '@/platform/http/validation/fields';
import {
  EligibilityPatientDto,
  EligibilitySubscriberDto,
  InsurerCodeListField,
} from '@/modules/eligibility';
import { LocationCodeField } from '@/modules/accounts';
import { KNOWN_INSURER_CODES } from '@/modules/insurers';
import {
  APPOINTMENT_STATUSES,
  type AppointmentStatus,
  BENEFIT_CODE,
  BENEFIT_CODE_MESSAGE,
  EXTERNAL_ID,
  EXTERNAL_ID_MAX_LENGTH,
  EXTERNAL_ID_MESSAGE,
  MAX_SERVICES,
} from '../../domain/appointment-words';

/** The path's `{external_id}` (docs/api.md, Appointments): the practice system's own id. */
export class AppointmentPathDto {
  @StringField({
    required: true,
    trim: false,
    maxLength: EXTERNAL_ID_MAX_LENGTH,
    pattern: EXTERNAL_ID,
    patternMessage: EXTERNAL_ID_MESSAGE,
    example: 'EPIC-APPT-20261124-0042',
    description:
      "The practice system's own id of the appointment: 1–64 printable ASCII characters, unique " +
      'in the account.',
  })
  external_id: string;
}

/**
 * An appointment as the practice system sends it (docs/api.md, Appointments): the body of
 * `PUT .../appointments/{external_id}/` and of each item of a sync. The rules between fields
 * (exactly one of `patient_code` and `patient`, of `insurer_code` and `insurer_code_list`;
 * `ends_at` after `starts_at`) and those the account's data decides (its locations and patients)
 * are AppointmentIntake's.
 */
export class UpsertAppointmentDto {
  @TimestampField({
    required: true,
    example: '2026-11-24T15:00:00-06:00',
    description: 'RFC 3339 with its offset; answered in UTC.',
  })
  starts_at: string;

  @TimestampField({
    example: '2026-11-24T15:30:00-06:00',
    description: 'RFC 3339 with its offset; after `starts_at`.',
  })
  ends_at?: string | null;

  @StringField({ required: true, choices: APPOINTMENT_STATUSES, example: 'booked' })
  status: AppointmentStatus;

  @LocationCodeField("A location of the account; empty or absent → the account's default location.")
  location_code?: string | null;

  @StringListField({
    maxItems: MAX_SERVICES,
    itemMaxLength: 64,
    itemPattern: BENEFIT_CODE,
    itemPatternMessage: BENEFIT_CODE_MESSAGE,
    unique: true,
    example: ['exam.routine', 'materials.frames'],
    description: 'Up to 20 benefit codes of what the visit is for.',
  })
  services?: string[] | null;

  @StringField({
    maxLength: 16,
    example: 'PAT4Q7ZK2MX',
    description: 'A patient record of the account (docs/api.md, Patients). Or `patient`, not both.',
  })
  patient_code?: string | null;

  @NestedField(() => EligibilityPatientDto, {
    description:
      'The patient as in an eligibility request (docs/api.md, Creating a request). Or ' +
      '`patient_code`, not both.',
  })
  patient?: EligibilityPatientDto | null;

  @NestedField(() => EligibilitySubscriberDto, {
    description:
      'With `patient` only, as in an eligibility request: the subscriber when the patient is ' +
      'their dependent.',
  })
  subscriber?: EligibilitySubscriberDto | null;

  @StringField({
    maxLength: 64,
    example: 'insurer:vision:vsp',
    description: 'A known insurer code. Or `insurer_code_list`, not both.',
  })
  insurer_code?: string | null;

  @InsurerCodeListField(
    ['insurer:vision:vsp', 'insurer:vision:eye_med'],
    '1–10 known insurer codes (Universal Search). Or `insurer_code`, not both. Known codes: ' +
      KNOWN_INSURER_CODES.join(', '),
  )
  insurer_code_list?: string[] | null;

  @TimestampField({
    example: '2026-11-20T09:12:44-06:00',
    description:
      'When the practice system last changed the appointment. A value older than the stored ' +
      'one changes nothing (the stored appointment is answered); absent, the stored one stays.',
  })
  source_updated_at?: string | null;
}
