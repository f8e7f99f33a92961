import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { fetchOutbound, readCapped } from '@/platform/http/outbound';
import { setBounded } from '@/platform/kernel/bounded-map';

/** What the NPI registry says an NPI is: a person (type 1), an organisation (type 2), or nothing known. */
export type NpiEntity = 'individual' | 'organization' | 'unknown';

const CACHE_TTL_MS = 24 * 3600 * 1000;
const CACHE_MAX = 5_000;
/** The registry's answer for one NPI is a few KiB; anything far larger is not its answer. */
export const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * The NPPES NPI Registry (CMS's public read API, version 2.1: `GET <url>?version=2.1&number=N`
 * → `{"result_count", "results": [{"number", "enumeration_type": "NPI-1"|"NPI-2", ...}]}`).
 * An NPI's digits do not say whether it belongs to a person or an organisation; the registry
 * does. docs/api.md, Claims needs the rendering provider to be an individual, so a type-2 NPI there is
 * a field error when the registry says so. `NPI_REGISTRY_URL` names it (production: CMS's; off
 * elsewhere unless set). When the registry cannot be asked (off, down, slow, an answer we cannot
 * read), the NPI is `unknown` and accepted: an outage of CMS's site must not stop a practice
 * from saving its location, and the payer's own edits still catch a wrong NPI.
 */
@Injectable()
export class NpiRegistry {
  private readonly logger = new Logger(NpiRegistry.name);
  private readonly cache = new Map<string, { entity: NpiEntity; at: number }>();

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  async entityOf(npi: string): Promise<NpiEntity> {
    const url = this.config.npiRegistryUrl;
    if (!url) return 'unknown';
    const hit = this.cache.get(npi);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.entity;
    let entity: NpiEntity;
    try {
      const target = new URL(url);
      target.searchParams.set('version', '2.1');
      target.searchParams.set('number', npi);
      // The configured registry answers itself: a redirect could send the NPI (and our trust
      // in the answer) to any host (src/platform/http/outbound.ts).
      const res = await fetchOutbound(fetch, target, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(this.config.npiRegistryTimeoutMs),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      entity = entityFromAnswer(JSON.parse(await readCapped(res, MAX_ANSWER_BYTES)), npi);
    } catch (e) {
      this.logger.warn(
        `NPI registry not answered (${e instanceof Error ? e.message : 'error'}): NPI type unchecked`,
      );
      return 'unknown';
    }
    setBounded(this.cache, CACHE_MAX, npi, { entity, at: Date.now() });
    return entity;
  }
}

/** The entity type in a registry answer for `npi`; anything else (no result, odd shapes) is unknown. */
export function entityFromAnswer(answer: unknown, npi: string): NpiEntity {
  const results = (answer as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return 'unknown';
  const match = results.find(
    (r): r is { enumeration_type?: unknown } =>
      typeof r === 'object' && r !== null && String((r as { number?: unknown }).number) === npi,
  );
  if (match?.enumeration_type === 'NPI-1') return 'individual';
  if (match?.enumeration_type === 'NPI-2') return 'organization';
  return 'unknown';
}
