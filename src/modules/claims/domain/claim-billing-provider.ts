import { Injectable } from '@nestjs/common';
import { AccountsService, type Location, locationAddress } from '@/modules/accounts';
import type { X837Address, X837IndividualProvider } from '@/lib/x12';

/**
 * The practice's provider identity on a claim (docs/api.md, Real insurers and Claims: per location). The fields
 * the 837P also needs (tax id, address, rendering provider) may be missing: the claim then goes
 * the paper route, saying which (`x12RouteGaps`).
 */
export interface BillingProvider {
  npi: string;
  organizationName: string;
  taxId: string | null;
  address: X837Address | null;
  taxonomyCode: string;
  /** The location's rendering provider; a claim may name its own. */
  renderingProvider: X837IndividualProvider | null;
  /** The location's code, for the paper route's reasons. */
  locationCode: string;
}

/**
 * The billing provider of a claim: the claim's location (its provider identity, docs/api.md, Real insurers).
 * A location without an NPI sends its claims the paper route.
 */
@Injectable()
export class BillingProviders {
  constructor(private readonly accounts: AccountsService) {}

  async forLocation(
    accountId: string,
    locationId: string,
  ): Promise<{ location: Location; provider: BillingProvider | null }> {
    const location = await this.accounts.getLocationById(accountId, locationId);
    if (!location) throw new Error(`location ${locationId} of account ${accountId} is missing`);
    return { location, provider: billingProviderOf(location) };
  }
}

export function billingProviderOf(location: Location): BillingProvider | null {
  if (!location.npi) return null;
  return {
    npi: location.npi,
    organizationName: location.organizationName || location.title,
    taxId: location.taxId,
    address: locationAddress(location),
    taxonomyCode: location.taxonomyCode,
    renderingProvider: location.renderingNpi
      ? {
          npi: location.renderingNpi,
          firstName: location.renderingFirstName ?? '',
          lastName: location.renderingLastName ?? '',
          taxonomyCode: location.renderingTaxonomyCode ?? location.taxonomyCode,
        }
      : null,
    locationCode: location.code,
  };
}

/**
 * What a claim's answer warns about (docs/api.md "Claims"): a location without an address leaves
 * boxes 32 and 33 of the claim form without one, and an 837P needs it, so the claim goes on paper.
 * Said from the location as it is now, as the form is drawn.
 */
export function claimWarnings(location: Location): string[] {
  if (locationAddress(location)) return [];
  return [
    `The location ${location.code} has no address: boxes 32 (service facility) and 33 (billing provider) of the claim form print none, and the claim can only go on paper. Add the location's address before the form is printed.`,
  ];
}
