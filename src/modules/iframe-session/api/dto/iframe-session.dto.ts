import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '@/platform/http/validation/fields';
import { ENTRY_POINTS, EntryPoint } from '../../domain/iframe-session.service';

export class CreateIframeSessionDto {
  @StringField({
    required: true,
    choices: ENTRY_POINTS,
    example: 'add_patient',
    description:
      'The initial view of the iframe: `add_patient` (the new-patient form), `insurers`, ' +
      "`passwords`, `schedule` (the day's appointments of a location, docs/api.md, Appointments).",
  })
  entry_point: EntryPoint;
}

export class IframeSessionResponse {
  @ApiProperty({
    example: 'https://vision.example.com/embed/?token=3f1c…&entry_point=add_patient',
    description: 'Use as the iframe `src`. Single use, valid for 5 minutes.',
  })
  iframe_url: string;
}
