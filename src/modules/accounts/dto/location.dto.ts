import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ApiNullable, ApiTimestamp } from '@/common/api-docs';
import { NestedField, StringField } from '@/common/validation/fields';
import { ZIPCODE, ZIPCODE_MESSAGE } from '@/modules/patients/dto/person-fields';
import { isoWithOffset } from '@/common/dates';
import type { Location } from '../location.entity';
import { isValidNpi } from '../npi';

const NPI_DESCRIPTION =
  "The practice's National Provider Identifier: 10 digits with a valid check digit. Required " +
  'before a real insurer can be asked (the 270 names the provider by it); null clears it.';

/** 10 digits, and the Luhn check digit over the 80840 prefix when they are. */
const NpiField = () =>
  applyDecorators(
    StringField({
      maxLength: 10,
      pattern: /^\d{10}$/,
      patternMessage: 'An NPI is 10 digits.',
      description: NPI_DESCRIPTION,
      example: '1234567893',
    }),
    ValidateBy({
      name: 'npi',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || !/^\d{10}$/.test(v) || isValidNpi(v),
        defaultMessage: () => 'This NPI has an invalid check digit.',
      },
    }),
  );

const OrganizationNameField = () =>
  StringField({
    maxLength: 60,
    description:
      'The name the insurer knows the practice by (NM103 of the 270); the title when unset.',
    example: 'Bright Eyes Optometry PLLC',
  });

const TaxIdField = () =>
  StringField({
    pattern: /^\d{9}$/,
    patternMessage: 'A tax id is 9 digits.',
    maxLength: 9,
    description: "The practice's federal tax id (EIN), 9 digits without a dash.",
    example: '741234567',
  });

/**
 * The location's street address: the service facility and billing provider of a claim (CMS-1500
 * boxes 32 and 33, the 837P's N3/N4). Lengths are the 837P's (N301 55, N401 30).
 */
export class LocationAddressDto {
  @StringField({ required: true, maxLength: 55, example: '901 E 6th St' })
  line1: string;

  @StringField({ maxLength: 55, example: 'Suite 200' })
  line2?: string | null;

  @StringField({ required: true, maxLength: 30, example: 'Austin' })
  city: string;

  @StringField({
    required: true,
    maxLength: 2,
    pattern: /^[A-Za-z]{2}$/,
    patternMessage: 'A state is its two-letter code (TX).',
    example: 'TX',
  })
  state: string;

  @StringField({
    required: true,
    maxLength: 10,
    pattern: ZIPCODE,
    patternMessage: ZIPCODE_MESSAGE,
    example: '78702',
  })
  zipcode: string;
}

const AddressField = () =>
  NestedField(() => LocationAddressDto, {
    description:
      'Street address, printed as the service facility and billing provider on claims; null clears it.',
  });

export class CreateLocationDto {
  @StringField({ required: true, maxLength: 200, example: 'Downtown Eye Care' })
  title: string;

  @NpiField()
  npi?: string | null;

  @OrganizationNameField()
  organization_name?: string | null;

  @TaxIdField()
  tax_id?: string | null;

  @AddressField()
  address?: LocationAddressDto | null;
}

/** PATCH: the fields given change; `null` clears the provider identity fields. */
export class UpdateLocationDto {
  @StringField({ nullable: false, maxLength: 200, example: 'Downtown Eye Care' })
  title?: string;

  @NpiField()
  npi?: string | null;

  @OrganizationNameField()
  organization_name?: string | null;

  @TaxIdField()
  tax_id?: string | null;

  @AddressField()
  address?: LocationAddressDto | null;
}

export class LocationAddressResponse {
  @ApiProperty({ example: '901 E 6th St' })
  line1: string;

  @ApiNullable('string', { example: 'Suite 200' })
  line2: string | null;

  @ApiProperty({ example: 'Austin' })
  city: string;

  @ApiProperty({ example: 'TX' })
  state: string;

  @ApiProperty({ example: '78702' })
  zipcode: string;
}

export class LocationResponse {
  @ApiProperty({ example: 'LOC7K2M9QXA' })
  code: string;

  @ApiProperty({ example: 'Downtown Eye Care' })
  title: string;

  @ApiProperty({ example: 'enabled', enum: ['enabled', 'disabled'] })
  status: string;

  @ApiProperty({ example: true, description: 'The location used when a request names none.' })
  is_default: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '1234567893',
    description: NPI_DESCRIPTION,
  })
  npi: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Bright Eyes Optometry PLLC' })
  organization_name: string | null;

  @ApiProperty({ type: String, nullable: true, example: '741234567' })
  tax_id: string | null;

  @ApiProperty({ type: LocationAddressResponse, nullable: true })
  address: LocationAddressResponse | null;

  @ApiTimestamp()
  created_at: string;

  static from(l: Location): LocationResponse {
    return {
      code: l.code,
      title: l.title,
      status: l.status,
      is_default: l.isDefault,
      npi: l.npi ?? null,
      organization_name: l.organizationName ?? null,
      tax_id: l.taxId ?? null,
      address:
        l.addressLine1 && l.city && l.state && l.zipcode
          ? {
              line1: l.addressLine1,
              line2: l.addressLine2 ?? null,
              city: l.city,
              state: l.state,
              zipcode: l.zipcode,
            }
          : null,
      created_at: isoWithOffset(l.createdAt),
    };
  }
}

/** The short location object embedded in patients and claims. */
export class LocationRef {
  @ApiProperty({ example: 'enabled' })
  status: string;

  @ApiProperty({ example: 'Downtown Eye Care' })
  title: string;

  @ApiProperty({ example: 'LOC7K2M9QXA' })
  code: string;

  static from(l: Pick<Location, 'status' | 'title' | 'code'>): LocationRef {
    return { status: l.status, title: l.title, code: l.code };
  }
}

export class LocationListResponse {
  @ApiProperty({ type: [LocationResponse] })
  result: LocationResponse[];
}
