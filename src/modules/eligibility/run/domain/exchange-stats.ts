import { Injectable } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import {
  InsurerCallStats,
  type InsurerCallStatsEntry,
  type InsurerCallStatsPort,
} from '@/modules/insurers';
import { InsurerExchangesRepository } from '../store/insurer-exchanges.repository';

/**
 * Insurer health's figures (docs/api.md, Insurer health) read from the exchange log: the
 * insurers module's InsurerCallStats hook, implemented here (insurers imports nothing of
 * eligibility). Kinds and times only: the log's error words may quote patient data.
 */
@Implements(InsurerCallStats)
@Injectable()
export class ExchangeStats implements InsurerCallStatsPort {
  constructor(private readonly rows: InsurerExchangesRepository) {}

  async since(accountId: string, since: Date): Promise<Map<string, InsurerCallStatsEntry>> {
    const rows = await this.rows.callsSince(accountId, since);
    return new Map(
      rows.map((r) => [
        r.insurer_code,
        {
          searches: r.searches,
          calls: r.calls,
          answered_share: r.answered_share,
          p50_seconds: r.p50_seconds,
          p95_seconds: r.p95_seconds,
          last_error:
            r.last_error_kind !== null && r.last_error_at !== null
              ? { kind: r.last_error_kind, at: r.last_error_at }
              : null,
        },
      ]),
    );
  }
}
