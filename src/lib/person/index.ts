/**
 * The door of the person vocabulary: the person and address shapes, formats and request fields
 * that patients, claims, eligibility, appointments, verification and accounts share.
 */
export {
  DOB_MIN,
  everyKey,
  PHONE,
  PHONE_MESSAGE,
  SEX_CHOICES,
  SSN_LAST_FOUR,
  SSN_LAST_FOUR_MESSAGE,
  ZIPCODE,
  ZIPCODE_MESSAGE,
} from './person';
export type {
  AskedPatient,
  MailingAddress,
  NamedPerson,
  Nullable,
  Optional,
  StreetAddress,
  Subscriber,
} from './person';
export {
  AddressLineField,
  CityField,
  MemberIdField,
  NameField,
  PastDateField,
  PhoneField,
  RecipientField,
  SexField,
  SsnLastFourField,
  StateField,
  ZipcodeField,
} from './person.fields';
