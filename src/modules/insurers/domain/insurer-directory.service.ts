import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import type { InsurerCode } from './insurer-codes';
import { type EligibilityPath, SHIPPED_INSURERS } from './insurer-directory.table';
import { InsurerSettingsService } from './insurer-settings.service';

/** One insurer as the directory answers it (docs/api.md, Insurers and assisted verification), for the calling account. */
export interface DirectoryEntry {
  insurer_code: string;
  name: string;
  aliases: string[];
  network_parent: string | null;
  eligibility: EligibilityPath;
  claims: 'x12' | 'paper';
  claim_status: '276' | 'reports' | 'none';
  remittance: '835' | 'none';
  payer_ids: { eligibility: string | null; claims: string | null };
  credentials: 'none' | 'ok' | 'needs_attention';
  /** The payer's provider portal (where a verifier signs in); null when it has none. */
  portal_url: string | null;
}

/**
 * The insurer directory: the shipped table (names, aliases, networks, portals) with the
 * operator's clearinghouse configuration (payer ids, claim and report endpoints) and the
 * account's settings (switched off, sent to a person, credentials' health) applied.
 */
@Injectable()
export class InsurerDirectory {
  constructor(
    private readonly settings: InsurerSettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async list(accountId: string): Promise<DirectoryEntry[]> {
    const { clearinghouse, claims } = this.config;
    const signsIn = clearinghouse.auth !== null;
    return (await this.settings.list(accountId)).map((s): DirectoryEntry => {
      const shipped = SHIPPED_INSURERS[s.code as InsurerCode];
      const payerId = clearinghouse.payerIds[s.code] ?? null;
      const x12Claims = signsIn && claims.claimsUrl !== null && payerId !== null;
      const reports = x12Claims && claims.reportsUrl !== null;
      const checks276 =
        x12Claims && claims.claimStatusUrl !== null && claims.statusInsurers.includes(s.code);
      return {
        insurer_code: s.code,
        name: s.name,
        aliases: shipped.aliases,
        network_parent: shipped.networkParent,
        eligibility: s.eligibility,
        claims: x12Claims ? 'x12' : 'paper',
        claim_status: checks276 ? '276' : reports ? 'reports' : 'none',
        remittance: reports ? '835' : 'none',
        payer_ids: {
          eligibility: s.eligibility === 'x12' ? payerId : null,
          claims: x12Claims ? payerId : null,
        },
        credentials: s.credentials,
        portal_url: shipped.portalUrl,
      };
    });
  }

  /** One insurer's entry; null for an unknown code. */
  async entry(accountId: string, code: string): Promise<DirectoryEntry | null> {
    return (await this.list(accountId)).find((e) => e.insurer_code === code) ?? null;
  }
}
