import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ServiceRecord } from '@/lib/benefits';
import { BenefitHistory, type BenefitHistoryPort, type HistoryLookup } from '@/modules/eligibility';
import { BenefitHistoryService } from './benefit-history.service';

/**
 * The patients side of eligibility's `BenefitHistory` port: a finishing search's persons are
 * looked up in the practice's staff entries and claims (docs/api.md, Next eligible dates).
 */
@Injectable()
export class BenefitHistoryBinding implements BenefitHistoryPort, OnModuleInit {
  constructor(
    private readonly port: BenefitHistory,
    private readonly history: BenefitHistoryService,
  ) {}

  onModuleInit(): void {
    this.port.bind(this);
  }

  servicesOf(accountId: string, lookups: readonly HistoryLookup[]): Promise<ServiceRecord[][]> {
    return this.history.servicesOf(accountId, lookups);
  }
}
