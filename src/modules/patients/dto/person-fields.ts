/** Formats shared by the person fields of patients and claims. */

export const SEX_CHOICES = ['female', 'male', 'other', 'unknown'] as const;

export const ZIPCODE = /^\d{5}(-\d{4})?$/;
export const ZIPCODE_MESSAGE = 'Enter a valid ZIP code (NNNNN or NNNNN-NNNN).';

export const SSN_LAST_FOUR = /^\d{4}$/;
export const SSN_LAST_FOUR_MESSAGE = 'Enter exactly 4 digits.';

export const PHONE = /^[0-9+().\-\s]{7,32}$/;
export const PHONE_MESSAGE = 'Enter a valid phone number.';

export const DOB_MIN = '1900-01-01';
