import { DateField, StringField } from '@/platform/http/validation/fields';

/** Formats shared by the person fields of patients and claims. */

export const SEX_CHOICES = ['female', 'male', 'other', 'unknown'] as const;

export const ZIPCODE = /^\d{5}(-\d{4})?$/;
export const ZIPCODE_MESSAGE = 'Enter a valid ZIP code (NNNNN or NNNNN-NNNN).';

export const SSN_LAST_FOUR = /^\d{4}$/;
export const SSN_LAST_FOUR_MESSAGE = 'Enter exactly 4 digits.';

export const PHONE = /^[0-9+().\-\s]{7,32}$/;
export const PHONE_MESSAGE = 'Enter a valid phone number.';

export const DOB_MIN = '1900-01-01';

/**
 * The person fields of the patient and claim bodies, one definition each: a date of birth (or of
 * service: not in the future, not before DOB_MIN), sex, the last four of the SSN, a phone number
 * and a ZIP code, each optional unless said.
 */
export const PastDateField = (example = '1986-04-12') =>
  DateField({ required: true, notFuture: true, min: DOB_MIN, example });

export const SexField = (description?: string) =>
  StringField({ choices: SEX_CHOICES, example: 'female', description });

export const SsnLastFourField = () =>
  StringField({ pattern: SSN_LAST_FOUR, patternMessage: SSN_LAST_FOUR_MESSAGE, example: '4321' });

export const PhoneField = () =>
  StringField({ pattern: PHONE, patternMessage: PHONE_MESSAGE, example: '512-555-0142' });

export const ZipcodeField = (required: boolean) =>
  StringField({
    required,
    maxLength: 10,
    pattern: ZIPCODE,
    patternMessage: ZIPCODE_MESSAGE,
    example: '78701',
  });
