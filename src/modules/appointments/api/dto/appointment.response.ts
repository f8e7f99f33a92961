import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { formatInstant } from '@/platform/kernel/time';
import { type AskedPatient, everyKey, type Subscriber } from '@/lib/person';
import type { Appointment, StoredPatient } from '../../store/appointment.entity';
import { NO_AUTO_CHECKS } from '../../domain/appointment-access';
import {
  APPOINTMENT_STATUSES,
  type AppointmentStatus,
  COVERAGE_STATES,
  type CoverageState,
} from '../../domain/appointment-words';

export class AppointmentSubscriberResponse implements Subscriber {
  @ApiProperty({ example: 'Carlos' }) first_name: string;
  @ApiProperty({ example: 'Garcia' }) last_name: string;
  @ApiField('date', { example: '1982-02-03' }) dob: string;
  @ApiNullable('string', { example: 'VSP123456789' }) member_id: string | null;
}

/** The patient as sent: the eligibility request's `patient`, with its `subscriber` (or null). */
export class AppointmentPatientResponse implements AskedPatient {
  @ApiProperty({ example: 'Maria' }) first_name: string;
  @ApiProperty({ example: 'Garcia' }) last_name: string;
  @ApiField('date', { example: '1984-06-15' }) dob: string;
  @ApiProperty({ example: '78701' }) zipcode: string;
  @ApiNullable('string', { example: '6789' }) ssn_last_four: string | null;
  @ApiNullable('string', { example: 'VSP123456789' }) member_id: string | null;

  @ApiProperty({
    type: AppointmentSubscriberResponse,
    nullable: true,
    description: 'The subscriber sent with the patient, or null.',
  })
  subscriber: AppointmentSubscriberResponse | null;
}

/** A field that differs between two answers (`state`, `benefits.frames.available`, ...). */
export class CoverageChangeResponse {
  @ApiProperty({ example: 'state' }) field: string;

  @ApiProperty({
    oneOf: [{ type: 'string', nullable: true }, { type: 'boolean' }],
    example: 'active',
    description: 'The value in the previous answer (a state, a boolean, a money amount or null).',
  })
  before: string | boolean | null;

  @ApiProperty({
    oneOf: [{ type: 'string', nullable: true }, { type: 'boolean' }],
    example: 'inactive',
    description: 'The value in this answer.',
  })
  after: string | boolean | null;
}

/** One benefit on the visit's date (docs/api.md, Appointments). */
export class CoverageBenefitResponse {
  @ApiProperty({
    type: 'boolean',
    nullable: true,
    example: true,
    description:
      "Whether the benefit can be used on the visit's date: false when the plan is not active " +
      'then, the benefit is not covered, or its next eligible date is later; null when the plan ' +
      'does not state it.',
  })
  available: boolean | null;

  @ApiNullable('date', { example: null }) next_eligible_date: string | null;

  @ApiNullable('string', { example: '10.0000', description: 'In network, four decimals.' })
  copayment: string | null;

  @ApiNullable('string', { example: '150.0000', description: 'In network, four decimals.' })
  allowance: string | null;
}

export class CoverageBenefitsResponse {
  @ApiProperty({ type: CoverageBenefitResponse }) exam: CoverageBenefitResponse;
  @ApiProperty({ type: CoverageBenefitResponse }) frames: CoverageBenefitResponse;
  @ApiProperty({ type: CoverageBenefitResponse }) spectacle_lenses: CoverageBenefitResponse;
  @ApiProperty({ type: CoverageBenefitResponse }) contact_lenses: CoverageBenefitResponse;
}

/**
 * Where the appointment's coverage stands. Until a check runs it is `not_checked` with every
 * other field empty.
 */
export class AppointmentCoverageResponse {
  @ApiField('string', {
    enum: COVERAGE_STATES,
    example: 'not_checked',
    description:
      "The last check's outcome: `not_checked` (no check yet), `checking` (one runs), `active`, " +
      '`inactive` (a plan, not active on the day), `no_plan`, `failed` (no answer), ' +
      '`waiting_for_person` (an insurer a person answers). How old the answer is says `stale`.',
  })
  state: CoverageState;

  @ApiProperty({
    type: 'boolean',
    example: false,
    description:
      "The last answer will be older than the policy's `freshness_hours` when the visit starts " +
      '(false before any answer).',
  })
  stale: boolean;

  @ApiNullable('date-time', { example: null, description: 'When the last check answered.' })
  checked_at: string | null;

  @ApiNullable('date-time', { example: null, description: 'Until when that answer is fresh.' })
  fresh_until: string | null;

  @ApiNullable('date-time', { example: null, description: 'When the next check is due.' })
  next_check_at: string | null;

  @ApiNullable('string', {
    example: null,
    description:
      "The last check's eligibility request (docs/api.md, Eligibility); null to a key without " +
      '`eligibility:read`.',
  })
  request_uid: string | null;

  @ApiProperty({
    type: [CoverageChangeResponse],
    nullable: true,
    example: [],
    description:
      "What differs from the previous answer: the state, and each benefit's `available`, " +
      '`copayment` and `allowance` (empty for a first answer); null to a key without ' +
      '`eligibility:read`.',
  })
  changes: CoverageChangeResponse[] | null;

  @ApiProperty({
    type: CoverageBenefitsResponse,
    nullable: true,
    example: null,
    description:
      "The four benefits on the visit's date; null until an answer with a plan, and to a key " +
      'without `eligibility:read`.',
  })
  benefits: CoverageBenefitsResponse | null;

  @ApiNullable('string', {
    example: null,
    description:
      'Why no check runs by itself for this appointment (a sentence): the API key that stored ' +
      'it lacks `eligibility:write`; null otherwise.',
  })
  detail: string | null;
}

/** What a reader of the appointment is answered of its checks (SECURITY.md, API key scopes). */
export interface CoverageView {
  /** The check's answer (benefits, changes, its `request_uid`): `eligibility:read`. */
  answers: boolean;
}

export class AppointmentResponse {
  @ApiProperty({ example: 'EPIC-APPT-20261124-0042' }) external_id: string;

  @ApiTimestamp({ example: '2026-11-24T21:00:00.000+00:00', description: 'In UTC.' })
  starts_at: string;

  @ApiNullable('date-time', { example: '2026-11-24T21:30:00.000+00:00', description: 'In UTC.' })
  ends_at: string | null;

  @ApiField('string', { enum: APPOINTMENT_STATUSES, example: 'booked' })
  status: AppointmentStatus;

  @ApiProperty({ example: 'LOC7K2M9QXA' }) location_code: string;

  @ApiProperty({ type: [String], example: ['exam.routine', 'materials.frames'] })
  services: string[];

  @ApiNullable('string', { example: null, description: 'The patient record, or null.' })
  patient_code: string | null;

  @ApiProperty({
    type: AppointmentPatientResponse,
    nullable: true,
    description: 'The patient as sent, or null with `patient_code`.',
  })
  patient: AppointmentPatientResponse | null;

  @ApiProperty({ type: [String], example: ['insurer:vision:vsp'] })
  insurer_codes: string[];

  @ApiNullable('date-time', { example: '2026-11-20T15:12:44.000+00:00' })
  source_updated_at: string | null;

  @ApiTimestamp() created_at: string;

  @ApiTimestamp({ description: 'When the appointment last changed.' }) updated_at: string;

  @ApiProperty({ type: AppointmentCoverageResponse })
  coverage: AppointmentCoverageResponse;

  /**
   * The appointment as `view` may read it: without the check's answers, `benefits`, `changes`
   * and `request_uid` are null (present, as every unset field is).
   */
  static from(a: Appointment, locationCode: string, view: CoverageView): AppointmentResponse {
    const stamp = (at: Date | string | null | undefined) =>
      at === null || at === undefined ? null : formatInstant(at, 'api');
    const coverage = a.coverage ?? {};
    return {
      external_id: a.externalId,
      starts_at: formatInstant(a.startsAt, 'api'),
      ends_at: stamp(a.endsAt),
      status: a.status,
      location_code: locationCode,
      services: a.services,
      patient_code: a.patientCode,
      patient: a.patient ? patientOf(a.patient) : null,
      insurer_codes: a.insurerCodes,
      source_updated_at: stamp(a.sourceUpdatedAt),
      created_at: formatInstant(a.createdAt, 'api'),
      updated_at: formatInstant(a.updatedAt, 'api'),
      coverage: {
        state: a.coverageState,
        stale: a.coverageStale,
        checked_at: stamp(coverage.checked_at),
        fresh_until: stamp(coverage.fresh_until),
        next_check_at: stamp(a.nextCheckAt),
        request_uid: view.answers ? (coverage.request_uid ?? null) : null,
        changes: view.answers ? ((coverage.changes ?? []) as CoverageChangeResponse[]) : null,
        benefits: view.answers
          ? ((coverage.benefits ?? null) as CoverageBenefitsResponse | null)
          : null,
        detail: a.autoChecks ? null : NO_AUTO_CHECKS,
      },
    };
  }
}

/** The stored patient with every key (a row written before a key existed answers it null). */
function patientOf(p: StoredPatient): AppointmentPatientResponse {
  const keys = ['first_name', 'last_name', 'dob', 'zipcode', 'ssn_last_four', 'member_id'] as const;
  return {
    ...everyKey(p, keys),
    subscriber: p.subscriber
      ? everyKey(p.subscriber, ['first_name', 'last_name', 'dob', 'member_id'])
      : null,
  };
}

export class AppointmentListResponse {
  @ApiProperty({ type: [AppointmentResponse], description: 'By `starts_at`, earliest first.' })
  result: AppointmentResponse[];

  @NextCursorDoc(
    'MjAyNi0xMS0yNFQyMTowMDowMC4wMDAwMDBafDBmOGZhZDViLWQ5Y2ItNDY5Zi1hMTY1LTcwODY3NzI4OTUwZQ',
  )
  next_cursor: string | null;
}
