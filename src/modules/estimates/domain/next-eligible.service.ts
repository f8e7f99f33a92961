import { Injectable } from '@nestjs/common';
import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { type BenefitEligibility, nextEligible } from '@/lib/benefits';
import type { NextEligibleRequestDto } from '../api/dto/next-eligible.dto';
import { nextEligibleBodyErrors } from './next-eligible.checks';

/**
 * The stateless next-eligible computation (docs/api.md, Next eligible dates): rules, services on
 * record and the plan's term in, per benefit the date it can be had again out. Nothing is read
 * or stored.
 */
@Injectable()
export class NextEligibleService {
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
