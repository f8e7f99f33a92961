import {
  BoolField,
  DecimalField,
  EmailField,
  IntField,
  JsonObjectField,
  NestedField,
  NestedListField,
  StringField,
  StringListField,
} from '@/platform/http/validation/fields';
import { RequestRules } from '@/platform/http/validation/request-rules';
import type { ErrorTree } from '@/platform/kernel/errors';
import { LocationCodeField, RenderingProviderDto } from '@/modules/accounts';
import { isKnownInsurer, unknownInsurerMessages } from '@/modules/insurers';
import { ProcedureCodesField } from '@/lib/benefits';
import {
  AddressLineField,
  CityField,
  type MailingAddress,
  MemberIdField,
  NameField,
  type Optional,
  PastDateField,
  PhoneField,
  RecipientField,
  SexField,
  SsnLastFourField,
  StateField,
  ZipcodeField,
} from '@/lib/person';

export const MAX_SERVICES = 6;
export const METADATA_MAX_BYTES = 16 * 1024;

/** ICD-10-CM: letter, digit, alphanumeric, then optionally a dot and 1–4 more (H52.13). */
export const ICD10_CODE = /^[A-Za-z][0-9][0-9A-Za-z](?:\.[0-9A-Za-z]{1,4})?$/;

export class ClaimAddressDto implements Optional<MailingAddress, 'line2' | 'recipient'> {
  @AddressLineField(true, '1208 Congress Ave')
  line1: string;

  @AddressLineField(false, 'Apt 4B')
  line2?: string | null;

  @CityField(true)
  city: string;

  @ZipcodeField(true)
  zipcode: string;

  @StateField(true)
  state: string;

  @RecipientField('person')
  recipient?: string | null;
}

export class ClaimPersonDto {
  @NameField('Maria')
  first_name: string;

  @NameField('Gonzalez')
  last_name: string;

  @PastDateField()
  dob: string;

  @StringField({
    maxLength: 32,
    example: 'self',
    description:
      'Relationship to the primary member: `self`, `spouse`, `child`, `dependent`, `other`.',
  })
  type?: string | null;

  @SexField('Required by VSP and the sandbox.')
  sex?: string | null;

  @MemberIdField('VSP104882211', "The insurer's member ID.")
  member_id?: string | null;

  @SsnLastFourField()
  ssn_last_four?: string | null;

  @EmailField({ example: 'maria.gonzalez@example.com' })
  email?: string | null;

  @PhoneField()
  phone?: string | null;

  @NestedField(() => ClaimAddressDto)
  address?: ClaimAddressDto | null;
}

export class ClaimPrimaryMemberDto extends ClaimPersonDto {
  @StringField({
    required: true,
    maxLength: 64,
    example: 'insurer:vision:vsp',
    description:
      'A known insurer code (docs/api.md, Eligibility); an unknown one is a whole-request error.',
  })
  insurer_code: string;
}

export class ClaimServiceDto {
  @ProcedureCodesField(
    'CPT/HCPCS procedure codes (upper-cased): exam 92014, lenses V2100, frame V2020.',
  )
  codes: string[];

  @PastDateField('2026-11-14')
  date: string;

  @IntField({
    required: true,
    acceptString: true,
    inBody: true,
    min: 1,
    max: 999,
    example: 1,
    description: 'Units: an integer or an integer string (1–999).',
  })
  quantity: number;

  @DecimalField({
    required: true,
    example: '145.00',
    description:
      'Price of one unit (the line charges cost × quantity): a decimal string or number.',
  })
  cost: string;

  @StringListField({
    maxItems: 12,
    itemMaxLength: 8,
    itemPattern: ICD10_CODE,
    itemPatternMessage: 'Enter an ICD-10 code (for example H52.13).',
    example: ['H52.13'],
    description: 'ICD-10 diagnosis codes (upper-cased); `[]` when absent.',
  })
  diagnosis_codes?: string[] | null;
}

/**
 * The unknown insurer of a claim body refused for its fields, reported with them (docs/api.md, Errors);
 * a code with errors of its own (blank, too long) is left to them.
 */
function unknownClaimInsurerOfBody(body: unknown, errors: ErrorTree): void {
  const member = (body as { primary_member?: unknown } | null)?.primary_member;
  if (typeof member !== 'object' || member === null) return;
  const code = (member as { insurer_code?: unknown }).insurer_code;
  if (typeof code !== 'string' || code.trim() === '') return;
  if ((errors.primary_member as ErrorTree | undefined)?.insurer_code) return;
  if (!isKnownInsurer(code.trim())) (errors.$ ??= []).push(...unknownInsurerMessages(code.trim()));
}

@RequestRules(unknownClaimInsurerOfBody)
export class CreateClaimDto {
  @NestedField(() => ClaimPersonDto, {
    required: true,
    description: 'The patient; identical to `primary_member` when the patient is the member.',
  })
  patient: ClaimPersonDto;

  @NestedField(() => ClaimPrimaryMemberDto, {
    required: true,
    description: 'The primary subscriber of the plan, with the insurer.',
  })
  primary_member: ClaimPrimaryMemberDto;

  @NestedListField(() => ClaimServiceDto, { required: true, minItems: 1, maxItems: MAX_SERVICES })
  services: ClaimServiceDto[];

  @DecimalField({
    required: true,
    example: '310.00',
    description:
      'Amount the patient paid, a decimal string or number. Never refused for differing from ' +
      'the total of the service lines (a patient may have paid for more, or less).',
  })
  paid_amount: string;

  @BoolField({
    example: false,
    description: 'Assign benefits to the provider (default false).',
  })
  accept_assignment?: boolean | null;

  @JsonObjectField({
    maxBytes: METADATA_MAX_BYTES,
    example: { account_number: 'CHART-20931' },
    description:
      "Free-form JSON object (≤ 16 KiB), returned as given; `account_number` is the recommended link to the caller's system: the practice's account number for the patient, printed in box 26 of the claim form (the claim code when absent).",
  })
  metadata?: Record<string, unknown> | null;

  @LocationCodeField("The claim's location; the account's default location when empty or absent.")
  location_code?: string | null;

  @NestedField(() => RenderingProviderDto, {
    description:
      "The individual who rendered the care (the 837P's 2310B): a type-1 NPI, never the location's organisation NPI; the location's `rendering_provider` when absent (docs/api.md, Claims).",
  })
  rendering_provider?: RenderingProviderDto | null;
}
