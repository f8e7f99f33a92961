import { KNOWN_SCOPES } from '@/modules/auth';
import { StringField, StringListField } from '@/platform/http/validation/fields';

/**
 * The API-key form. Keys are created only here and by the CLI (no API route), so the web module
 * holds the request DTO; it uses the API's field decorators and messages.
 */
export class CreateApiKeyDto {
  @StringField({ required: true, maxLength: 100, example: 'Front desk PMS' })
  name: string;

  /** SECURITY.md: at least one; `write` includes `read`. */
  @StringListField({
    required: true,
    minItems: 1,
    maxItems: KNOWN_SCOPES.length,
    itemMaxLength: 32,
    unique: true,
    choices: KNOWN_SCOPES,
  })
  scopes: string[];
}
