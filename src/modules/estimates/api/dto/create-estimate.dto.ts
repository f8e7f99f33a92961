import {
  DateField,
  DecimalField,
  IntField,
  NestedField,
  NestedListField,
  StringField,
} from '@/platform/http/validation/fields';
import { EstimatePlanDto, PersonIdField, ProcedureCodesField } from '@/lib/benefits';

export const MAX_ESTIMATE_SERVICES = 20;
export const MAX_SERVICE_QUANTITY = 999;

export class EstimateServiceDto {
  @ProcedureCodesField(
    'CPT/HCPCS codes. Without `benefit_code`, the first code the service-code table knows names ' +
      'the benefit (92002–92014 exam, 92310–92317 contact-lens fitting, V2020/V2025 frames, ' +
      'V2100–V2499 and V2781 spectacle lenses by type, V2700–V2799 lens options, V2500–V2599 ' +
      'contact lenses); a line none of whose codes maps is reimbursed 0 with a note.',
  )
  codes: string[];

  @StringField({
    maxLength: 128,
    example: 'materials.contact_lenses.elective',
    description:
      'Estimate on this benefit of the plan instead of mapping the codes (absent from the plan → 0).',
  })
  benefit_code?: string | null;

  @DecimalField({
    required: true,
    example: '120.00',
    description: 'Cost of one unit, as a decimal string (or number).',
  })
  cost: string;

  @IntField({
    acceptString: true,
    min: 1,
    max: MAX_SERVICE_QUANTITY,
    example: 1,
    description: 'Units (default 1); the charge is cost × quantity.',
  })
  quantity?: number | null;
}

export class CreateEstimateDto {
  @StringField({
    maxLength: 256,
    example: 'visit-2026-11-21-0042',
    description:
      'A `complete` eligibility request of your account; with `person_id`, estimates on that ' +
      "person's plan. Give these two or `plan`, not both.",
  })
  request_uid?: string | null;

  @PersonIdField() person_id?: number | null;

  @NestedField(() => EstimatePlanDto, {
    description:
      'A V2 plan object (`persons[].plan`) as an eligibility result returns it, given inline.',
  })
  plan?: EstimatePlanDto | null;

  @StringField({
    choices: ['oon', 'inn'],
    example: 'oon',
    description: 'Which network values to use: `oon` (default) or `inn`.',
  })
  network?: 'oon' | 'inn' | null;

  @DateField({
    example: '2026-11-21',
    description:
      'The day of the visit (today when absent). A benefit not yet available then (the ' +
      "plan's `next_eligible` date for it, else its `next_eligible_date`, after this day) pays " +
      'nothing, and its line says why.',
  })
  date_of_service?: string | null;

  @NestedListField(() => EstimateServiceDto, {
    required: true,
    minItems: 1,
    maxItems: MAX_ESTIMATE_SERVICES,
  })
  services: EstimateServiceDto[];
}
