import { Injectable } from '@nestjs/common';
import { AccountsService } from '@/modules/accounts/accounts.service';
import type { Location } from '@/modules/accounts/location.entity';
import type { X837Address } from '@/modules/x12/x837.writer';

/** The practice's provider identity on a claim (CONTRACT §10: per location). */
export interface BillingProvider {
  npi: string;
  organizationName: string;
  taxId: string | null;
  address: X837Address | null;
}

/**
 * The billing provider of a claim: the claim's location (its provider identity, CONTRACT §10).
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
    // Locations carry no street address yet; the 837P then leaves N3/N4 out.
    address: null,
  };
}
