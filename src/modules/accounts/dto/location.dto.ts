import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ApiNullable, ApiTimestamp } from '@/common/api-docs';
import { NestedField, StringField } from '@/common/validation/fields';
import { isoWithOffset } from '@/common/dates';
import type { Location } from '../location.entity';
import { isValidNpi } from '../npi';

const NPI_DESCRIPTION =
  "The practice's National Provider Identifier: 10 digits with a valid check digit. Required " +
  'before a real insurer can be asked (the 270 names the provider by it); null clears it.';

/** 10 digits, and the Luhn check digit over the 80840 prefix when they are. */
const NpiField = (description = NPI_DESCRIPTION, example = '1234567893') =>
  applyDecorators(
    StringField({
      required: description !== NPI_DESCRIPTION,
      maxLength: 10,
      pattern: /^\d{10}$/,
      patternMessage: 'An NPI is 10 digits.',
      description,
      example,
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

export const PO_BOX_MESSAGE = 'The billing address must be a street address, not a PO box.';
export const LOCATION_ZIPCODE_MESSAGE =
  "A location's ZIP code carries the ZIP+4 (NNNNN-NNNN): the 837P's billing provider needs all nine digits.";
export const RENDERING_NPI_MESSAGE =
  "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.";

/** `PO Box 12`, `P.O. Box`, `POB 3`, `Post Office Box`, `Lock Box`: not a street address. */
const PO_BOX =
  /\b(p\.?\s*o\.?\s*b(ox)?|post\s+office\s+box|postal\s+box|lock\s*box|pobox)\b\.?\s*\d*/i;

export function isPoBox(value: unknown): boolean {
  return typeof value === 'string' && PO_BOX.test(value);
}

/** A street line of the billing address: a PO box is refused (the 837P's 2010AA N3, §15). */
const StreetLineField = (required: boolean, example: string) =>
  applyDecorators(
    StringField({ required, maxLength: 55, example }),
    ValidateBy({
      name: 'streetAddress',
      validator: {
        validate: (v: unknown) => !isPoBox(v),
        defaultMessage: () => PO_BOX_MESSAGE,
      },
    }),
  );

const TaxonomyField = (description: string) =>
  StringField({
    nullable: false,
    maxLength: 10,
    pattern: /^[0-9A-Za-z]{9}[Xx]$/,
    patternMessage: 'A taxonomy code is 10 characters ending in X (152W00000X, optometrist).',
    description,
    example: '152W00000X',
  });

/**
 * The location's street address: the service facility and billing provider of a claim (CMS-1500
 * boxes 32 and 33, the 837P's N3/N4). Lengths are the 837P's (N301 55, N401 30).
 */
export class LocationAddressDto {
  @StreetLineField(true, '901 E 6th St')
  line1: string;

  @StreetLineField(false, 'Suite 200')
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
    pattern: /^\d{5}-\d{4}$/,
    patternMessage: LOCATION_ZIPCODE_MESSAGE,
    example: '78702-4410',
    description: "ZIP+4, NNNNN-NNNN (the 837P requires the billing provider's nine digits).",
  })
  zipcode: string;
}

/**
 * The individual who renders care (the 837P's 2310B, CONTRACT §15): a type-1 NPI with a valid
 * check digit (never the location's organisation NPI), the name, the taxonomy (else the
 * location's).
 */
export class RenderingProviderDto {
  @NpiField("The rendering provider's own (individual, type-1) NPI.", '1245319599')
  npi: string;

  @StringField({ required: true, maxLength: 35, example: 'Ana' })
  first_name: string;

  @StringField({ required: true, maxLength: 60, example: 'Ruiz' })
  last_name: string;

  @TaxonomyField("The rendering provider's taxonomy; the location's `taxonomy_code` when absent.")
  taxonomy_code?: string;
}

const RenderingProviderField = (description: string) =>
  NestedField(() => RenderingProviderDto, { description });

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

  @TaxonomyField(
    "The billing provider's taxonomy (the 837P's PRV*BI); default 152W00000X (optometrist).",
  )
  taxonomy_code?: string;

  @RenderingProviderField(
    "The individual who renders care at the location (the 837P's 2310B), unless a claim names its own; null clears it. Required before claims go electronic.",
  )
  rendering_provider?: RenderingProviderDto | null;
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

  @TaxonomyField(
    "The billing provider's taxonomy (the 837P's PRV*BI); default 152W00000X (optometrist).",
  )
  taxonomy_code?: string;

  @RenderingProviderField(
    "The individual who renders care at the location (the 837P's 2310B), unless a claim names its own; null clears it. Required before claims go electronic.",
  )
  rendering_provider?: RenderingProviderDto | null;
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

  @ApiProperty({
    example: '78702-4410',
    description: 'ZIP+4 for addresses given since CONTRACT §15.',
  })
  zipcode: string;
}

export class RenderingProviderResponse {
  @ApiProperty({ example: '1245319599' })
  npi: string;

  @ApiProperty({ example: 'Ana' })
  first_name: string;

  @ApiProperty({ example: 'Ruiz' })
  last_name: string;

  @ApiProperty({
    example: '152W00000X',
    description: "The location's taxonomy when none was given.",
  })
  taxonomy_code: string;
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

  @ApiProperty({ example: '152W00000X', description: "The billing provider's taxonomy code." })
  taxonomy_code: string;

  @ApiProperty({ type: RenderingProviderResponse, nullable: true })
  rendering_provider: RenderingProviderResponse | null;

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
      taxonomy_code: l.taxonomyCode,
      rendering_provider: l.renderingNpi
        ? {
            npi: l.renderingNpi,
            first_name: l.renderingFirstName ?? '',
            last_name: l.renderingLastName ?? '',
            taxonomy_code: l.renderingTaxonomyCode ?? l.taxonomyCode,
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
