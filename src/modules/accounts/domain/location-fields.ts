import type { Optional, StreetAddress } from '@/lib/person';
import { ValidationFailed } from '@/platform/kernel/errors';
import { Location } from '../store/location.entity';

/** A location's fields as a request gives them (undefined: unchanged; null: cleared). */
export interface LocationFields {
  title?: string;
  npi?: string | null;
  organization_name?: string | null;
  tax_id?: string | null;
  address?: Optional<StreetAddress, 'line2'> | null;
  taxonomy_code?: string;
  rendering_provider?: {
    npi: string;
    first_name: string;
    last_name: string;
    taxonomy_code?: string | null;
  } | null;
  time_zone?: string | null;
}

/** The rendering provider columns of a location (all null when `provider` is null). */
export function renderingColumns(
  provider: LocationFields['rendering_provider'],
): Pick<
  Location,
  'renderingNpi' | 'renderingFirstName' | 'renderingLastName' | 'renderingTaxonomyCode'
> {
  return {
    renderingNpi: provider?.npi ?? null,
    renderingFirstName: provider?.first_name ?? null,
    renderingLastName: provider?.last_name ?? null,
    renderingTaxonomyCode: provider?.taxonomy_code?.toUpperCase() ?? null,
  };
}

/**
 * docs/api.md, Claims: the rendering provider is an individual. An NPI does not tell its type, but the
 * location's own NPI is the organisation's (type 2), so the same number as rendering provider is
 * refused.
 */
export function checkRenderingProvider(
  npi: string | null | undefined,
  renderingNpi: string | null | undefined,
  field = 'rendering_provider.npi',
): void {
  if (npi && renderingNpi && npi === renderingNpi)
    throw ValidationFailed.field(
      field,
      "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.",
    );
}

/** What a rendering provider the NPI registry knows as an organisation is told (docs/api.md, Claims). */
export const ORGANISATION_NPI_MESSAGE =
  'The NPI registry lists this NPI as an organisation (type 2): the rendering provider is an individual (a type-1 NPI).';

/** The field error for a rendering provider the NPI registry knows as an organisation. */
export function organisationNpiError(field = 'rendering_provider.npi'): ValidationFailed {
  return ValidationFailed.field(field, ORGANISATION_NPI_MESSAGE);
}

/** The location's street address (CMS-1500 boxes 32 and 33): all four columns set, or null. */
export function locationAddress(l: Location): StreetAddress | null {
  if (!l.addressLine1 || !l.city || !l.state || !l.zipcode) return null;
  return {
    line1: l.addressLine1,
    line2: l.addressLine2 ?? null,
    city: l.city,
    state: l.state,
    zipcode: l.zipcode,
  };
}

/** The address columns of a location (all null when `address` is null). */
export function addressColumns(
  address: LocationFields['address'],
): Pick<Location, 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipcode'> {
  return {
    addressLine1: address?.line1 ?? null,
    addressLine2: address?.line2 || null,
    city: address?.city ?? null,
    state: address?.state.toUpperCase() ?? null,
    zipcode: address?.zipcode ?? null,
  };
}
