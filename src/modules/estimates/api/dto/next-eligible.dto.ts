import {
  DateField,
  NestedField,
  NestedListField,
  StringField,
} from '@/platform/http/validation/fields';
import { RequestRules } from '@/platform/http/validation/request-rules';
import {
  BENEFIT_CODE,
  BENEFIT_CODE_MESSAGE,
  FrequencyDto,
  SERVICE_SOURCES,
  type ServiceSource,
} from '@/lib/benefits';
import {
  NEXT_ELIGIBLE_LIMITS as LIMITS,
  nextEligibleBodyErrors,
} from '../../domain/next-eligible.checks';

/** The request of POST /api/auth/v1/benefits/next-eligible/ (docs/api.md, Next eligible dates). */

const benefitCode = (description: string) =>
  StringField({
    required: true,
    maxLength: 128,
    pattern: BENEFIT_CODE,
    patternMessage: BENEFIT_CODE_MESSAGE,
    example: 'materials.frames',
    description,
  });

export class NextEligibleRuleDto {
  @benefitCode('The benefit the rule is for; one rule per benefit.')
  benefit_code: string;

  @NestedField(() => FrequencyDto, { required: true })
  frequency: FrequencyDto;

  @DateField({
    example: null,
    description:
      "A next-eligible date the payer states (DTP 348, a verifier's answer): it wins over the " +
      'computed one unless a service on record is later.',
  })
  payer_next_eligible_date?: string | null;
}

export class ServiceRecordDto {
  @benefitCode(
    "The benefit of the service: a rule's benefit, one under it (`materials.spectacle_lenses." +
      "single_vision` for `materials.spectacle_lenses`) or one a rule's `shared_with` names.",
  )
  benefit_code: string;

  @DateField({ required: true, example: '2025-03-10', description: 'The date of service.' })
  date: string;

  @StringField({
    choices: SERVICE_SOURCES,
    example: 'claim',
    description: 'Where the date comes from (`staff` when absent).',
  })
  source?: ServiceSource | null;
}

export class PlanTermDto {
  @DateField({ example: '2026-01-01', description: 'Plan years start on its anniversary.' })
  begin_date?: string | null;

  @DateField({
    example: '2026-12-31',
    description: 'A next date after it is said not to be under this plan.',
  })
  end_date?: string | null;
}

@RequestRules(nextEligibleBodyErrors)
export class NextEligibleRequestDto {
  @DateField({
    required: true,
    example: '2026-01-15',
    description: 'The day of the question: a computed date is never before it.',
  })
  as_of: string;

  @NestedListField(() => NextEligibleRuleDto, {
    required: true,
    minItems: 1,
    maxItems: LIMITS.rules,
  })
  rules: NextEligibleRuleDto[];

  @NestedListField(() => ServiceRecordDto, { required: true, maxItems: LIMITS.history })
  history: ServiceRecordDto[];

  @NestedField(() => PlanTermDto, {
    description: "The plan's term; `begin_date` is needed by plan-year rules.",
  })
  plan?: PlanTermDto | null;
}
