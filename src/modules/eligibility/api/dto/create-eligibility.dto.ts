import {
  IntField,
  NestedField,
  StringField,
  StringListField,
} from '@/platform/http/validation/fields';
import { RequestRules } from '@/platform/http/validation/request-rules';
import {
  MemberIdField,
  NameField,
  PastDateField,
  SsnLastFourField,
  ZipcodeField,
} from '@/lib/person';
import { LocationCodeField } from '@/modules/accounts';
import { KNOWN_INSURER_CODES } from '@/modules/insurers';
import { insurerErrorsOfBody } from '../../intake/domain/intake-rules';

/** docs/api.md, Authentication: a request uid (and a details request's uid) has at most 256 characters. */
export const REQUEST_UID_MAX_LENGTH = 256;

/** Universal Search: 1–10 known insurer codes, each at most once (appointments take it too). */
export const InsurerCodeListField = (example: string[], description: string) =>
  StringListField({
    minItems: 1,
    maxItems: 10,
    itemMaxLength: 64,
    unique: true,
    example,
    description,
  });

export class EligibilityPatientDto {
  @NameField('Maria', true, 'Cheat codes for the sandbox go here, in last_name or in member_id.')
  first_name: string;

  @NameField('Garcia')
  last_name: string;

  @PastDateField('1984-06-15')
  dob: string;

  @ZipcodeField(true, null)
  zipcode: string;

  @SsnLastFourField('6789')
  ssn_last_four?: string | null;

  @MemberIdField('VSP123456789')
  member_id?: string | null;
}

/** docs/api.md, Real insurers: the subscriber, when the patient is their dependent. */
export class EligibilitySubscriberDto {
  @NameField('Carlos')
  first_name: string;

  @NameField('Garcia')
  last_name: string;

  @PastDateField('1982-02-03')
  dob: string;

  @MemberIdField(
    'VSP123456789',
    "The subscriber's member id (a family plan's dependents usually share it).",
  )
  member_id?: string | null;
}

@RequestRules(insurerErrorsOfBody)
export class CreateEligibilityDto {
  @StringField({
    maxLength: 64,
    example: 'insurer:demo:vision',
    description: 'Required unless insurer_code_list is given. Must be a known insurer code.',
  })
  insurer_code?: string | null;

  @InsurerCodeListField(
    ['insurer:demo:vision', 'insurer:vision:vsp', 'insurer:vision:eye_med'],
    'Universal Search: 1–10 known insurer codes, queried in parallel; all results come back in one `results` array. ' +
      'When given, it is used instead of insurer_code. The answer may be partial: an insurer that ' +
      'fails is left out of a `complete` result (see the result `results`). Known codes: ' +
      KNOWN_INSURER_CODES.join(', '),
  )
  insurer_code_list?: string[] | null;

  @StringField({
    maxLength: REQUEST_UID_MAX_LENGTH,
    example: 'visit-2026-11-21-0042',
    description:
      'Your id for this request, unique in your account. Generated (32 hex characters) when absent.',
  })
  request_uid?: string | null;

  @LocationCodeField("Empty → the account's default location.")
  location_code?: string | null;

  @NestedField(() => EligibilityPatientDto, { required: true })
  patient: EligibilityPatientDto;

  @StringField({
    choices: ['all', 'electronic', 'first_active'],
    example: 'electronic',
    description:
      'When the answer is `complete` (docs/api.md, Universal Search insurer by insurer). `all` ' +
      '(default): when every insurer has answered, people included. `electronic`: when every ' +
      "insurer not answered by a person has; a person's later answer joins the same `results` " +
      'and is sent as `eligibility.updated`. `first_active`: as soon as one insurer found an ' +
      'active plan (the others `not_asked`).',
  })
  wait_for?: 'all' | 'electronic' | 'first_active' | null;

  @StringField({
    choices: ['when_needed', 'always', 'never'],
    example: 'when_needed',
    description:
      'When insurers answered by a person (assisted verification) are asked. `when_needed` ' +
      '(default): only once every electronic insurer has answered without an active plan. ' +
      '`always`: at once. `never`: not at all.',
  })
  assisted?: 'when_needed' | 'always' | 'never' | null;

  @IntField({
    min: 0,
    max: 720,
    example: 72,
    description:
      "How old (in hours) a person's earlier answer for the same patient and insurer may be to " +
      'answer this request without a new task (default: VERIFICATION_REUSE_HOURS, 72). `0`: ' +
      'always ask a person.',
  })
  max_age_hours?: number | null;

  @NestedField(() => EligibilitySubscriberDto, {
    description:
      'When the patient is a dependent (a child or spouse on a family plan): the subscriber who ' +
      'holds the plan. Real insurers are then asked about the subscriber with the patient as ' +
      'their dependent.',
  })
  subscriber?: EligibilitySubscriberDto | null;
}

export class CreateDetailsDto {
  @StringField({
    required: true,
    maxLength: REQUEST_UID_MAX_LENGTH,
    example: 'visit-2026-11-21-0042',
    description: 'Must equal the UID in the path.',
  })
  request_uid: string;

  @IntField({ required: true, min: 1, example: 41 })
  result_id: number;

  @IntField({ required: true, min: 1, example: 97 })
  person_id: number;

  @StringField({
    maxLength: REQUEST_UID_MAX_LENGTH,
    example: 'visit-2026-11-21-0042-details',
    description: 'Optional UID for the details request (same rules as request_uid).',
  })
  details_request_uid?: string | null;
}
