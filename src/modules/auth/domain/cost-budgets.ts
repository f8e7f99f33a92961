import type Redis from 'ioredis';
import type { AppConfig } from '@/platform/config/env';
import { LocalRateBuckets } from './rate-fallback';
import type { RateDecision } from './rate-limiter';

/** The budgets heavy requests spend by their cost (docs/api.md, Conventions). */
export type CostBudgetName = 'batch_items' | 'next_eligible';

export interface CostBudget {
  name: CostBudgetName;
  limit: number;
  windowMs: number;
  /** While Redis does not answer: this process alone counts, up to `limit` per window. */
  fallback: LocalRateBuckets;
}

export function costBudgets(config: AppConfig): Record<CostBudgetName, CostBudget> {
  const budget = (name: CostBudgetName, limit: number, windowMs: number): CostBudget => ({
    name,
    limit,
    windowMs,
    fallback: new LocalRateBuckets(limit, windowMs),
  });
  return {
    batch_items: budget('batch_items', config.costLimits.batchItemsPerHour, 3_600_000),
    next_eligible: budget('next_eligible', config.costLimits.nextEligibleCostPerMinute, 60_000),
  };
}

/** One weighted increment in Redis (SPEND), shared by every process. */
export async function spendShared(
  redis: Redis,
  budget: CostBudget,
  key: string,
  cost: number,
): Promise<RateDecision> {
  const client = redis as Redis & {
    costSpend(...args: (string | number)[]): Promise<[number, number]>;
  };
  const [admitted, msLeft] = await client.costSpend(
    `cost:${budget.name}:${key}`,
    cost,
    budget.limit,
    budget.windowMs,
  );
  return admitted === 1
    ? { allowed: true }
    : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
