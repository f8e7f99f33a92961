import { ApiProperty } from '@nestjs/swagger';
import { ApiTimestamp } from '@/platform/http/api-docs';
import { NestedField, StringField } from '@/platform/http/validation/fields';
import { formatInstant } from '@/platform/kernel/time';
import type { Location } from '../../store/location.entity';
import { locationAddress } from '../../domain/location-fields';
import {
  LocationAddressDto,
  LocationAddressResponse,
  NPI_DESCRIPTION,
  NpiField,
  RenderingProviderDto,
  RenderingProviderResponse,
  TaxonomyField,
  TimeZoneField,
} from './location-parts.dto';

export {
  LOCATION_ZIPCODE_MESSAGE,
  LocationAddressDto,
  LocationCodeField,
  LocationAddressResponse,
  PO_BOX_MESSAGE,
  RenderingProviderDto,
  RenderingProviderIdentityResponse,
  RenderingProviderResponse,
  isPoBox,
} from './location-parts.dto';

/** A location's fields as both bodies take them: the title required unless a subclass says. */
class LocationBodyDto {
  @StringField({ required: true, maxLength: 200, example: 'Downtown Eye Care' })
  title?: string;

  @NpiField()
  npi?: string | null;

  @StringField({
    maxLength: 60,
    description:
      'The name the insurer knows the practice by (NM103 of the 270); the title when unset.',
    example: 'Bright Eyes Optometry PLLC',
  })
  organization_name?: string | null;

  @StringField({
    pattern: /^\d{9}$/,
    patternMessage: 'A tax id is 9 digits.',
    maxLength: 9,
    description: "The practice's federal tax id (EIN), 9 digits without a dash.",
    example: '741234567',
  })
  tax_id?: string | null;

  @NestedField(() => LocationAddressDto, {
    description:
      'Street address, printed as the service facility and billing provider on claims; null clears it.',
  })
  address?: LocationAddressDto | null;

  @TaxonomyField(
    "The billing provider's taxonomy (the 837P's PRV*BI); default 152W00000X (optometrist).",
  )
  taxonomy_code?: string;

  @NestedField(() => RenderingProviderDto, {
    description:
      "The individual who renders care at the location (the 837P's 2310B), unless a claim names its own; null clears it. Required before claims go electronic.",
  })
  rendering_provider?: RenderingProviderDto | null;

  @TimeZoneField()
  time_zone?: string | null;
}

export class CreateLocationDto extends LocationBodyDto {
  declare title: string;
}

/** PATCH: the fields given change; `null` clears the provider identity fields, never the title. */
export class UpdateLocationDto extends LocationBodyDto {
  @StringField({ nullable: false, maxLength: 200, example: 'Downtown Eye Care' })
  declare title?: string;
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

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'America/Chicago',
    description: "The location's IANA time zone, or null.",
  })
  time_zone: string | null;

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
      address: locationAddress(l),
      taxonomy_code: l.taxonomyCode,
      rendering_provider: l.renderingNpi
        ? {
            npi: l.renderingNpi,
            first_name: l.renderingFirstName ?? '',
            last_name: l.renderingLastName ?? '',
            taxonomy_code: l.renderingTaxonomyCode ?? l.taxonomyCode,
          }
        : null,
      time_zone: l.timeZone ?? null,
      created_at: formatInstant(l.createdAt, 'api'),
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
