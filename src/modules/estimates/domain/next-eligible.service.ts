import { Injectable } from '@nestjs/common';
import { RateLimiter } from '@/modules/auth';
import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { type BenefitEligibility, nextEligible } from '@/lib/benefits';
import type { NextEligibleRequestDto } from '../api/dto/next-eligible.dto';
import { nextEligibleBodyErrors } from './next-eligible.checks';

/** The stateless next-eligible computation (docs/api.md, Next eligible dates). */
@Injectable()
export class NextEligibleService {
  constructor(private readonly limiter: RateLimiter) {}

  /** An API key's question: its rules and history entries spend the key's per-minute budget. */
  async ask(apiKeyId: string, dto: NextEligibleRequestDto): Promise<BenefitEligibility[]> {
    await this.limiter.spend('next_eligible', apiKeyId, dto.rules.length + dto.history.length);
    return this.compute(dto);
  }

  compute(dto: NextEligibleRequestDto): BenefitEligibility[] {
    const errors: ErrorTree = {};
    nextEligibleBodyErrors(dto, errors);
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return nextEligible({
      as_of: dto.as_of,
      rules: dto.rules.map((r) => ({
        benefit_code: r.benefit_code,
        frequency: {
          count: r.frequency.count,
          period: { kind: r.frequency.period.kind, months: r.frequency.period.months ?? null },
          shared_with: r.frequency.shared_with ?? [],
        },
        payer_next_eligible_date: r.payer_next_eligible_date ?? null,
      })),
      history: dto.history.map((h) => ({
        benefit_code: h.benefit_code,
        date: h.date,
        source: h.source ?? 'staff',
      })),
      plan: dto.plan
        ? { begin_date: dto.plan.begin_date ?? null, end_date: dto.plan.end_date ?? null }
        : null,
    });
  }
}
