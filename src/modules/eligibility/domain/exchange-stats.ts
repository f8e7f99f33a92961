import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  InsurerCallStats,
  type InsurerCallStatsEntry,
  type InsurerCallStatsPort,
} from '@/modules/insurers';
import { InsurerExchangesRepository } from '../store/insurer-exchanges.repository';

/**
 * Insurer health's figures (docs/api.md, Insurer health) read from the exchange log: the
 * insurers module's InsurerCallStats port, bound here at start-up (insurers imports nothing of
 * eligibility). Kinds and times only: the log's error words may quote patient data.
 */
@Injectable()
export class ExchangeStats implements InsurerCallStatsPort, OnModuleInit {
  constructor(
    private readonly rows: InsurerExchangesRepository,
    private readonly port: InsurerCallStats,
  ) {}

  onModuleInit(): void {
    this.port.bind(this);
  }

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
