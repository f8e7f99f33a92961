import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';
import { DateField, StringField } from '@/platform/http/validation/fields';
import { rule } from '@/platform/http/validation/base';
import { MSG } from '@/platform/kernel/messages';
import { isKnownInsurer, unknownInsurerMessages } from '@/modules/insurers';
import { HISTORY_BENEFIT_CODES, type HistoryBenefitCode } from '@/lib/benefits';
import { DOB_MIN } from '@/lib/person';

/** docs/api.md, Patients (benefit history): a service staff record on a patient. */
export class CreateBenefitEntryDto {
  @StringField({
    required: true,
    maxLength: 64,
    example: 'insurer:vision:vsp',
    description: 'The insurer whose benefit the service used (a code of the insurer directory).',
  })
  @rule(
    'knownInsurer',
    (v) => typeof v !== 'string' || v.trim() === '' || isKnownInsurer(v.trim()),
    (v) => MSG.unknownInsurer(String(v).trim()),
    (v) => unknownInsurerMessages(String(v).trim()).slice(1),
  )
  insurer_code: string;

  @StringField({
    required: true,
    choices: HISTORY_BENEFIT_CODES,
    example: 'materials.frames',
    description: 'The benefit the service used.',
  })
  benefit_code: HistoryBenefitCode;

  @DateField({
    required: true,
    notFuture: true,
    min: DOB_MIN,
    example: '2025-08-31',
    description: 'The date of service: not in the future.',
  })
  date: string;

  @StringField({
    maxLength: 1000,
    allowBlank: true,
    example: 'Frames bought at another practice; patient showed the receipt.',
  })
  note?: string | null;
}

const SOURCES = ['staff', 'claim', 'remittance'] as const;

export class BenefitHistoryEntry {
  @ApiField('string', {
    enum: SOURCES,
    example: 'claim',
    description:
      '`staff` (recorded here), `claim` (a claim the practice filed through the service) or ' +
      '`remittance` (that claim, its line paid by the 835).',
  })
  source: (typeof SOURCES)[number];

  @ApiProperty({ example: 'insurer:vision:vsp' })
  insurer_code: string;

  @ApiField('string', { enum: HISTORY_BENEFIT_CODES, example: 'materials.frames' })
  benefit_code: string;

  @ApiField('date', { example: '2025-08-31', description: 'The date of service.' })
  date: string;

  @ApiNullable('string', { example: null, description: "A staff entry's note." })
  note: string | null;

  @ApiNullable('string', { example: 'CLM7K2M9QXA', description: 'The claim of the service.' })
  claim_code: string | null;

  @ApiNullable('string', {
    example: 'V2020',
    description: "The claim line's procedure code that used the benefit.",
  })
  procedure_code: string | null;
}

export class BenefitHistoryList {
  @ApiProperty({
    type: [BenefitHistoryEntry],
    description: 'The most recent service first.',
  })
  result: BenefitHistoryEntry[];
}
