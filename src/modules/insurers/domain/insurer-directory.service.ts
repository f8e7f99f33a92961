import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { InjectHook } from '@/platform/kernel/hooks';
import { AssistedTaskStats, type AssistedTaskStatsPort } from './assisted-task-stats.port';
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
  /**
   * Assisted insurers only (absent on the others): the account's open tasks of it, and the
   * median minutes from a task's creation to its answer over the last 30 days (null: none).
   */
  tasks_open?: number;
  median_minutes_to_answer?: number | null;
}

/**
 * The insurer directory: the shipped table (names, aliases, networks, portals) with the
 * operator's clearinghouse configuration (payer ids, claim and report endpoints) and the
 * account's settings (switched off, sent to a person, credentials' health) applied; assisted
 * insurers carry the account's task figures, which verification answers through the
 * AssistedTaskStats port.
 */
@Injectable()
export class InsurerDirectory {
  constructor(
    private readonly settings: InsurerSettingsService,
    @InjectHook(AssistedTaskStats) private readonly taskStats: AssistedTaskStatsPort,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async list(accountId: string): Promise<DirectoryEntry[]> {
    const entries = await this.entries(accountId);
    const assisted = entries.filter((e) => e.eligibility === 'assisted');
    if (assisted.length === 0) return entries;
    // One statement for every assisted insurer of the directory.
    const stats = await this.taskStats.forInsurers(
      accountId,
      assisted.map((e) => e.insurer_code),
    );
    for (const entry of assisted) {
      const figures = stats.get(entry.insurer_code);
      entry.tasks_open = figures?.tasks_open ?? 0;
      entry.median_minutes_to_answer = figures?.median_minutes_to_answer ?? null;
    }
    return entries;
  }

  /** The entries without the task figures of assisted insurers. */
  private async entries(accountId: string): Promise<DirectoryEntry[]> {
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
}
