import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { addFieldError, type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { timestampOffsetMinutes } from '@/platform/http/validation/fields';
import { AccountsService, type Location } from '@/modules/accounts';
import { PatientsService } from '@/modules/patients';
import { AppointmentPathDto, UpsertAppointmentDto } from '../api/dto/upsert-appointment.dto';
import type { AppointmentValues } from '../store/appointments.repository';
import type { StoredPatient } from '../store/appointment.entity';
import { APPOINTMENT_MESSAGES, appointmentBodyErrors } from './appointment-rules';

/** The API's own pipe (as registered globally): the same rules and messages as every route. */
const pipe = createValidationPipe();

/** A body checked on its own (fields and the rules between them), before the account's data. */
export interface CheckedBody {
  dto: UpsertAppointmentDto | null;
  errors: ErrorTree;
  /** What the account's data decides, as sent (undefined: refused already, or not sent). */
  locationCode: string | null | undefined;
  patientCode: string | undefined;
}

/** The account's data the bodies name: its locations and which patient codes it has. */
interface AccountData {
  locations: Location[];
  patients: Set<string>;
}

/** A body the account's data accepts, or the errors of one it refuses. */
export type Intake =
  | { values: AppointmentValues; locationCode: string; errors?: undefined }
  | { errors: ErrorTree; values?: undefined };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The validation of an appointment body (docs/api.md, Appointments), one way for a PUT and for
 * each item of a sync, so both answer the same error tree: the fields through the API's pipe
 * (UpsertAppointmentDto, the house field decorators), the rules between them
 * (appointmentBodyErrors), then the account's data: its location (the default one when none is
 * named) and its patient record.
 */
@Injectable()
export class AppointmentIntake {
  constructor(
    private readonly accounts: AccountsService,
    private readonly patients: PatientsService,
  ) {}

  /** A PUT's body: its values, or ValidationFailed with every error at once. */
  async one(
    accountId: string,
    externalId: string,
    body: unknown,
  ): Promise<{ values: AppointmentValues; locationCode: string }> {
    const checked = await checkBody(body);
    const intake = this.resolve(externalId, checked, await this.lookup(accountId, [checked]));
    if (intake.errors) throw new ValidationFailed(intake.errors);
    return { values: intake.values, locationCode: intake.locationCode };
  }

  /** What the bodies name of the account: its locations, and which of their patient codes exist. */
  async lookup(accountId: string, bodies: CheckedBody[]): Promise<AccountData> {
    const codes = bodies.flatMap((b) => (b.patientCode === undefined ? [] : [b.patientCode]));
    const [locations, patients] = await Promise.all([
      this.accounts.listLocations(accountId),
      this.patients.existingCodes(accountId, codes),
    ]);
    return { locations, patients };
  }

  /** The checked body against the account's data: the values to store, or every error. */
  resolve(externalId: string, checked: CheckedBody, data: AccountData): Intake {
    const errors = structuredClone(checked.errors);
    let location: Location | undefined;
    if (checked.locationCode !== undefined) {
      location = locationOf(data.locations, checked.locationCode);
      if (!location)
        addFieldError(
          errors,
          ['location_code'],
          checked.locationCode
            ? APPOINTMENT_MESSAGES.unknownLocation(checked.locationCode)
            : APPOINTMENT_MESSAGES.noDefaultLocation,
        );
    }
    if (checked.patientCode !== undefined && !data.patients.has(checked.patientCode))
      addFieldError(
        errors,
        ['patient_code'],
        APPOINTMENT_MESSAGES.unknownPatient(checked.patientCode),
      );
    if (Object.keys(errors).length > 0 || !checked.dto || !location) return { errors };
    return {
      values: valuesOf(externalId, checked.dto, location.id),
      locationCode: location.code,
    };
  }
}

/**
 * A body on its own: the API's pipe on its fields (fast path included), then the rules between
 * them. No body at all is validated as `{}`; anything but an object is refused as a whole.
 */
export async function checkBody(body: unknown): Promise<CheckedBody> {
  const sent = body === undefined ? {} : body;
  if (!isObject(sent))
    return {
      dto: null,
      errors: { $: [MSG.object] },
      locationCode: undefined,
      patientCode: undefined,
    };
  let dto: UpsertAppointmentDto | null = null;
  let errors: ErrorTree = {};
  try {
    dto = (await pipe.transform(sent, {
      type: 'body',
      metatype: UpsertAppointmentDto,
    })) as UpsertAppointmentDto;
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    errors = e.errors;
  }
  appointmentBodyErrors(sent, errors);
  return {
    dto: Object.keys(errors).length > 0 ? null : dto,
    errors,
    locationCode: errors.location_code
      ? undefined
      : textOf(dto?.location_code ?? sent.location_code),
    patientCode: errors.patient_code ? undefined : textOf(sent.patient_code) || undefined,
  };
}

/** A sync item's `external_id`, with the path's rules and messages: its errors, or none. */
export async function externalIdErrors(value: unknown): Promise<ErrorTree | null> {
  try {
    await pipe.transform({ external_id: value }, { type: 'body', metatype: AppointmentPathDto });
    return null;
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    return e.errors;
  }
}

/** A sent text as the field decorators hold it (trimmed); absent or null → null. */
function textOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The account's location named by `code`, or its default one when `code` is empty. */
function locationOf(locations: Location[], code: string | null): Location | undefined {
  return code ? locations.find((l) => l.code === code) : locations.find((l) => l.isDefault);
}

function valuesOf(
  externalId: string,
  dto: UpsertAppointmentDto,
  locationId: string,
): AppointmentValues {
  return {
    external_id: externalId,
    starts_at: dto.starts_at,
    ends_at: dto.ends_at ?? null,
    status: dto.status,
    location_id: locationId,
    services: dto.services ?? [],
    patient_code: dto.patient_code ?? null,
    patient: dto.patient ? patientOf(dto) : null,
    insurer_codes: dto.insurer_code_list ?? [dto.insurer_code!],
    source_updated_at: dto.source_updated_at ?? null,
    visit_date: dto.starts_at.slice(0, 10),
    starts_offset: timestampOffsetMinutes(dto.starts_at),
    check_key: checkKeyOf(dto),
  };
}

/**
 * The patient and insurers a check asks about, as one hash (no patient data in the column): the
 * patient record's code, or the patient as sent (names folded to lower case), with the insurers.
 */
function checkKeyOf(dto: UpsertAppointmentDto): string {
  const p = dto.patient;
  const s = dto.subscriber;
  const who = dto.patient_code
    ? ['code', dto.patient_code]
    : [
        'patient',
        p!.first_name.toLowerCase(),
        p!.last_name.toLowerCase(),
        p!.dob,
        p!.member_id || '',
        s ? [s.first_name.toLowerCase(), s.last_name.toLowerCase(), s.dob, s.member_id || ''] : [],
      ];
  const insurers = [...(dto.insurer_code_list ?? [dto.insurer_code!])].sort();
  return createHash('sha256')
    .update(JSON.stringify([who, insurers]))
    .digest('hex');
}

function patientOf(dto: UpsertAppointmentDto): StoredPatient {
  const p = dto.patient!;
  const s = dto.subscriber;
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    dob: p.dob,
    zipcode: p.zipcode,
    ssn_last_four: p.ssn_last_four || null,
    member_id: p.member_id || null,
    subscriber: s
      ? {
          first_name: s.first_name,
          last_name: s.last_name,
          dob: s.dob,
          member_id: s.member_id || null,
        }
      : null,
  };
}
