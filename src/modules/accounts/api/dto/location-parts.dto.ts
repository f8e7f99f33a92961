import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ApiNullable } from '@/platform/http/api-docs';
import { StringField } from '@/platform/http/validation/fields';
import { isValidNpi } from '../../../../lib/npi';
import type { Optional, StreetAddress } from '@/lib/person';

export const NPI_DESCRIPTION =
  "The practice's National Provider Identifier: 10 digits with a valid check digit. Required " +
  'before a real insurer can be asked (the 270 names the provider by it); null clears it.';

/** 10 digits, and the Luhn check digit over the 80840 prefix when they are. */
export const NpiField = (description = NPI_DESCRIPTION, example = '1234567893') =>
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

export const TIME_ZONE_MESSAGE = 'Enter an IANA time zone name, e.g. America/Chicago.';

/** An IANA zone name (`America/Chicago`, `UTC`), as the runtime's zone data knows it; no offset. */
export function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value))
    return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** docs/api.md, Locations: the zone the web pages show the location's visits in; null clears it. */
export const TimeZoneField = () =>
  applyDecorators(
    StringField({
      maxLength: 64,
      description:
        "The location's IANA time zone, in which the web pages show its visits; null clears it " +
        '(they show each visit at the offset it was sent with).',
      example: 'America/Chicago',
    }),
    ValidateBy({
      name: 'timeZone',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || isTimeZone(v),
        defaultMessage: () => TIME_ZONE_MESSAGE,
      },
    }),
  );

export const PO_BOX_MESSAGE = 'The billing address must be a street address, not a PO box.';
export const LOCATION_ZIPCODE_MESSAGE =
  "A location's ZIP code carries the ZIP+4 (NNNNN-NNNN): the 837P's billing provider needs all nine digits.";

/** `PO Box 12`, `P.O. Box`, `POB 3`, `Post Office Box`, `Lock Box`: not a street address. */
const PO_BOX =
  /\b(p\.?\s*o\.?\s*b(ox)?|post\s+office\s+box|postal\s+box|lock\s*box|pobox)\b\.?\s*\d*/i;

export function isPoBox(value: unknown): boolean {
  return typeof value === 'string' && PO_BOX.test(value);
}

/** A street line of the billing address: a PO box is refused (the 837P's 2010AA N3; docs/api.md, Locations). */
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

/** A location of the account by its code, as a request names it (blank: none named). */
export const LocationCodeField = (description: string) =>
  StringField({ maxLength: 16, allowBlank: true, example: 'LOC7K2M9QXA', description });

export const TaxonomyField = (description: string) =>
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
export class LocationAddressDto implements Optional<StreetAddress, 'line2'> {
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
 * The individual who renders care (the 837P's 2310B, docs/api.md, Claims): a type-1 NPI with a valid
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

export class LocationAddressResponse implements StreetAddress {
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
    description: 'ZIP+4 for addresses given since docs/api.md, Claims.',
  })
  zipcode: string;
}

/** The rendering provider's NPI and name as answers show them; each answer adds its taxonomy. */
export class RenderingProviderIdentityResponse {
  @ApiProperty({ example: '1245319599' })
  npi: string;

  @ApiProperty({ example: 'Ana' })
  first_name: string;

  @ApiProperty({ example: 'Ruiz' })
  last_name: string;
}

export class RenderingProviderResponse extends RenderingProviderIdentityResponse {
  @ApiProperty({
    example: '152W00000X',
    description: "The location's taxonomy when none was given.",
  })
  taxonomy_code: string;
}
