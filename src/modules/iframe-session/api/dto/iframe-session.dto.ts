import { ApiProperty } from '@nestjs/swagger';
import { IntField, StringField } from '@/platform/http/validation/fields';
import { ENTRY_POINTS, EntryPoint } from '../../domain/iframe-session.service';

export class CreateIframeSessionDto {
  @StringField({
    required: true,
    choices: ENTRY_POINTS,
    example: 'add_patient',
    description:
      'The initial view of the iframe: `add_patient` (the new-patient form), `insurers`, ' +
      "`passwords`, `schedule` (the day's appointments of a location, docs/api.md, Appointments), " +
      '`quote` (the Counter of one person of a check: with `request_uid` and `person_id`, docs/api.md, The counter).',
  })
  entry_point: EntryPoint;

  @StringField({
    maxLength: 256,
    example: 'visit-2026-11-21-0042',
    description:
      'With `entry_point` `quote` only (and then required): an eligibility request of your account.',
  })
  request_uid?: string | null;

  @IntField({
    min: 1,
    acceptString: true,
    example: 97,
    description:
      "With `entry_point` `quote` only (and then required): the person's `id` in the result of `request_uid`.",
  })
  person_id?: number | null;
}

export class IframeSessionResponse {
  @ApiProperty({
    example: 'https://vision.example.com/embed/?token=3f1c…&entry_point=add_patient',
    description: 'Use as the iframe `src`. Single use, valid for 5 minutes.',
  })
  iframe_url: string;
}
