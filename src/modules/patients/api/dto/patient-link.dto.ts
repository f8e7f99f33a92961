import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '@/platform/http/validation/fields';
import { ResultEntryV2 } from '@/modules/eligibility';

export class LinkEligibilityDto {
  @StringField({
    required: true,
    maxLength: 256,
    example: 'visit-2026-11-21-0042',
    description: 'UID of an eligibility request of the account.',
  })
  request_uid: string;
}

export class PatientEligibilityLink {
  @ApiProperty({ example: 'visit-2026-11-21-0042' })
  request_uid: string;

  @ApiProperty({
    example: 'http://localhost:3000/app/patients/PAT4Q7ZK2MX/',
    description: "The patient's page in the web application.",
  })
  provider_app_url: string;

  @ApiProperty({
    type: [ResultEntryV2],
    nullable: true,
    description: 'The V2 results of the request; null while processing or on error.',
  })
  results: unknown[] | null;
}

export class PatientEligibilityLinkList {
  @ApiProperty({ type: [PatientEligibilityLink] })
  result: PatientEligibilityLink[];
}
