import { BoolField, EmailField, NestedField, StringField } from '@/platform/http/validation/fields';
import {
  PastDateField,
  PhoneField,
  SexField,
  SsnLastFourField,
  ZipcodeField,
} from './person-fields';

export class PatientAddressDto {
  @StringField({ maxLength: 200, example: '1208 Congress Ave' })
  line1?: string | null;

  @StringField({ maxLength: 200, example: 'Apt 4B' })
  line2?: string | null;

  @StringField({
    maxLength: 200,
    example: null,
    description: 'Addressee when it is not the patient ("c/o ...").',
  })
  recipient?: string | null;

  @StringField({ maxLength: 100, example: 'Austin' })
  city?: string | null;

  @StringField({ maxLength: 64, example: 'TX' })
  state?: string | null;

  @ZipcodeField(false)
  zipcode?: string | null;
}

export class CreatePatientDto {
  @StringField({
    required: true,
    maxLength: 100,
    example: 'Maria',
    description: 'Stored and returned in lower case.',
  })
  first_name: string;

  @StringField({ maxLength: 100, example: null, description: 'Stored and returned in lower case.' })
  middle_name?: string | null;

  @StringField({
    required: true,
    maxLength: 100,
    example: 'Gonzalez',
    description: 'Stored and returned in lower case.',
  })
  last_name: string;

  @PastDateField()
  dob: string;

  @SexField()
  sex?: string | null;

  @SsnLastFourField()
  ssn_last_four?: string | null;

  @EmailField({ example: 'maria.gonzalez@example.com' })
  email?: string | null;

  @PhoneField()
  phone?: string | null;

  @NestedField(() => PatientAddressDto)
  address?: PatientAddressDto | null;

  @StringField({
    maxLength: 64,
    example: 'CHART-20931',
    description: "The patient's number in the caller's own system.",
  })
  account_number?: string | null;

  @StringField({
    maxLength: 16,
    allowBlank: true,
    example: 'LOC7K2M9QXA',
    description: "The patient's location; the account's default location when empty or absent.",
  })
  location_code?: string | null;

  @BoolField({
    example: false,
    description:
      'Save the patient even when one with the same first name, last name and date of birth ' +
      'already exists (otherwise that is refused, naming the existing patient).',
  })
  force_similar?: boolean | null;
}
