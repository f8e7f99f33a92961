import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/kernel/clock';
import { InjectHook } from '@/platform/kernel/hooks';
import { InsurerCallStats, type InsurerCallStatsPort } from './insurer-call-stats.port';
import { KNOWN_INSURERS } from './insurer-codes';
import { formatInstant } from '@/platform/kernel/time';

/** How far back insurer health looks (docs/api.md, Insurer health). */
const HEALTH_WINDOW_SECONDS = 3600;

/**
 * Per insurer, the calling account's calls of the last hour (docs/api.md, Insurer health): every
 * insurer of the directory, in its order, so a dashboard keeps its rows when an insurer had no
 * call. The figures come from eligibility's exchange log through the InsurerCallStats port.
 */
@Injectable()
export class InsurerHealth {
  constructor(
    @InjectHook(InsurerCallStats) private readonly calls: InsurerCallStatsPort,
    private readonly clock: Clock,
  ) {}

  /** One entry an insurer, as docs/api.md, Insurer health (InsurerHealthEntryDoc) describes it. */
  async forAccount(accountId: string) {
    const asOf = this.clock.now();
    const since = new Date(asOf.getTime() - HEALTH_WINDOW_SECONDS * 1000);
    const stats = await this.calls.since(accountId, since);
    return {
      window_seconds: HEALTH_WINDOW_SECONDS,
      as_of: formatInstant(asOf, 'utc'),
      result: KNOWN_INSURERS.map(({ code, name }) => {
        const s = stats.get(code);
        return {
          insurer_code: code,
          name,
          searches: s?.searches ?? 0,
          calls: s?.calls ?? 0,
          answered_share: s?.answered_share ?? null,
          p50_seconds: s?.p50_seconds ?? null,
          p95_seconds: s?.p95_seconds ?? null,
          // Kind and time only: an error's words may quote what the insurer said about a patient.
          last_error: s?.last_error
            ? { kind: s.last_error.kind, at: formatInstant(s.last_error.at, 'utc') }
            : null,
        };
      }),
    };
  }
}
