import { DateField, StringField } from '@/platform/http/validation/fields';
import {
  DOB_MIN,
  PHONE,
  PHONE_MESSAGE,
  SEX_CHOICES,
  SSN_LAST_FOUR,
  SSN_LAST_FOUR_MESSAGE,
  ZIPCODE,
  ZIPCODE_MESSAGE,
} from './person';

/**
 * The request fields of persons and addresses, one definition each (lengths, formats, messages),
 * for the bodies of patients, claims, eligibility requests (and so appointments) and verifiers:
 * each field optional unless said.
 */

/** A first, middle or last name. */
export const NameField = (example: string | null, required = true, description?: string) =>
  StringField({ required, maxLength: 100, example, description });

/** A date of birth (or of service): not in the future, not before DOB_MIN. */
export const PastDateField = (example = '1986-04-12') =>
  DateField({ required: true, notFuture: true, min: DOB_MIN, example });

export const SexField = (description?: string) =>
  StringField({ choices: SEX_CHOICES, example: 'female', description });

export const SsnLastFourField = (example = '4321') =>
  StringField({ pattern: SSN_LAST_FOUR, patternMessage: SSN_LAST_FOUR_MESSAGE, example });

export const PhoneField = () =>
  StringField({ pattern: PHONE, patternMessage: PHONE_MESSAGE, example: '512-555-0142' });

/** The insurer's member id. */
export const MemberIdField = (example: string, description?: string) =>
  StringField({ maxLength: 64, example, description });

/** NNNNN or NNNNN-NNNN; a `maxLength` of null leaves the length to the pattern. */
export const ZipcodeField = (required: boolean, maxLength: number | null = 10) =>
  StringField({
    required,
    maxLength: maxLength ?? undefined,
    pattern: ZIPCODE,
    patternMessage: ZIPCODE_MESSAGE,
    example: '78701',
  });

export const AddressLineField = (required: boolean, example: string, allowBlank?: boolean) =>
  StringField({ required, maxLength: 200, example, allowBlank });

export const CityField = (required: boolean) =>
  StringField({ required, maxLength: 100, example: 'Austin' });

export const StateField = (required: boolean, maxLength = 64) =>
  StringField({ required, maxLength, example: 'TX' });

/** The addressee when it is not `whom` ("c/o ..."). */
export const RecipientField = (whom: string) =>
  StringField({
    maxLength: 200,
    example: null,
    description: `Addressee when it is not the ${whom} ("c/o ...").`,
  });
