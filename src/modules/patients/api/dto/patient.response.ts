import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { isoDate, formatInstant } from '@/platform/kernel/time';
import { LocationRef } from '@/modules/accounts';
import { type Patient, type PatientAddress, patientAddress } from '../../store/patient.entity';
import { SEX_CHOICES } from '@/lib/person';

export class PatientAddressResponse implements PatientAddress {
  @ApiNullable('string', { example: '1208 Congress Ave' })
  line1: string | null;

  @ApiNullable('string', { example: 'Apt 4B' })
  line2: string | null;

  @ApiNullable('string', { example: null })
  recipient: string | null;

  @ApiNullable('string', { example: 'Austin' })
  city: string | null;

  @ApiNullable('string', { example: '78701' })
  zipcode: string | null;

  @ApiNullable('string', { example: 'TX' })
  state: string | null;
}

export class PatientResponse {
  @ApiProperty({ example: 'PAT4Q7ZK2MX' })
  code: string;

  @ApiProperty({ example: 'maria', description: 'Lower case.' })
  first_name: string;

  @ApiNullable('string', { example: null, description: 'Lower case.' })
  middle_name: string | null;

  @ApiProperty({ example: 'gonzalez', description: 'Lower case.' })
  last_name: string;

  @ApiField('date', { example: '1986-04-12' })
  dob: string;

  @ApiNullable('string', { enum: SEX_CHOICES, example: 'female' })
  sex: string | null;

  @ApiNullable('string', { example: '4321' })
  ssn_last_four: string | null;

  @ApiNullable('string', { example: 'maria.gonzalez@example.com' })
  email: string | null;

  @ApiNullable('string', { example: '512-555-0142' })
  phone: string | null;

  @ApiProperty({ type: PatientAddressResponse, nullable: true })
  address: PatientAddressResponse | null;

  @ApiNullable('string', { example: 'CHART-20931' })
  account_number: string | null;

  @ApiProperty({ type: LocationRef })
  location: LocationRef;

  @ApiTimestamp()
  created_at: string;

  static from(p: Patient, location: LocationRef): PatientResponse {
    return {
      code: p.code,
      first_name: p.firstName,
      middle_name: p.middleName,
      last_name: p.lastName,
      dob: isoDate(p.dob)!,
      sex: p.sex,
      ssn_last_four: p.ssnLastFour,
      email: p.email,
      phone: p.phone,
      address: p.address ? patientAddress(p.address) : null,
      account_number: p.accountNumber,
      location,
      created_at: formatInstant(p.createdAt, 'api'),
    };
  }
}

export class PatientListResponse {
  @ApiProperty({ type: [PatientResponse], description: 'Newest first.' })
  result: PatientResponse[];

  @NextCursorDoc(
    'MjAyNi0xMS0yMVQxMzo1MToxNi45MjZafDBmOGZhZDViLWQ5Y2ItNDY5Zi1hMTY1LTcwODY3NzI4OTUwZQ',
  )
  next_cursor: string | null;
}
