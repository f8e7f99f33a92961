import { BoolField, EmailField, NestedField, StringField } from '@/platform/http/validation/fields';
import {
  AddressLineField,
  CityField,
  NameField,
  PastDateField,
  PhoneField,
  RecipientField,
  SexField,
  SsnLastFourField,
  StateField,
  ZipcodeField,
} from '@/lib/person';
import { LocationCodeField } from '@/modules/accounts';
import type { PatientAddress } from '../../store/patient.entity';

export class PatientAddressDto implements Partial<PatientAddress> {
  @AddressLineField(false, '1208 Congress Ave')
  line1?: string | null;

  @AddressLineField(false, 'Apt 4B')
  line2?: string | null;

  @RecipientField('patient')
  recipient?: string | null;

  @CityField(false)
  city?: string | null;

  @StateField(false)
  state?: string | null;

  @ZipcodeField(false)
  zipcode?: string | null;
}

const LOWER_CASE = 'Stored and returned in lower case.';

export class CreatePatientDto {
  @NameField('Maria', true, LOWER_CASE)
  first_name: string;

  @NameField(null, false, LOWER_CASE)
  middle_name?: string | null;

  @NameField('Gonzalez', true, LOWER_CASE)
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

  @LocationCodeField("The patient's location; the account's default location when empty or absent.")
  location_code?: string | null;

  @BoolField({
    example: false,
    description:
      'Save the patient even when one with the same first name, last name and date of birth ' +
      'already exists (otherwise that is refused, naming the existing patient).',
  })
  force_similar?: boolean | null;
}
