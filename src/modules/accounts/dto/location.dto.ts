import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ApiTimestamp } from '@/common/api-docs';
import { StringField } from '@/common/validation/fields';
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

export class CreateLocationDto {
  @StringField({ required: true, maxLength: 200, example: 'Downtown Eye Care' })
  title: string;

  @NpiField()
  npi?: string | null;

  @OrganizationNameField()
  organization_name?: string | null;

  @TaxIdField()
  tax_id?: string | null;
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
