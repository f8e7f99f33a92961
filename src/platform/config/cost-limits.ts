import { type Env, envReaders } from './env-parts';

/** Batch items one API key may send per hour by default: two of the largest (docs/api.md, Batches). */
const DEFAULT_BATCH_ITEMS_PER_HOUR = 20_000;
/**
 * Cost (rules + history entries) of next-eligible questions one API key may ask per minute by
 * default: about nine of the largest the route takes (100 rules, 1,000 entries), hundreds of
 * ordinary ones.
 */
const DEFAULT_NEXT_ELIGIBLE_COST_PER_MINUTE = 10_000;

/**
 * docs/api.md, Conventions (rate limits): heavy requests count by what they cost against their
 * own per-key budgets, beside the per-key request limit.
 */
export interface CostLimits {
  /** BATCH_ITEMS_PER_HOUR: batch items per API key per hour. */
  batchItemsPerHour: number;
  /** NEXT_ELIGIBLE_COST_PER_MINUTE: next-eligible rules + history entries per key per minute. */
  nextEligibleCostPerMinute: number;
}

export function loadCostLimits(env: Env, problems: string[]): CostLimits {
  const { int } = envReaders(env, problems);
  return {
    batchItemsPerHour: int('BATCH_ITEMS_PER_HOUR', DEFAULT_BATCH_ITEMS_PER_HOUR, 1, 10_000_000),
    nextEligibleCostPerMinute: int(
      'NEXT_ELIGIBLE_COST_PER_MINUTE',
      DEFAULT_NEXT_ELIGIBLE_COST_PER_MINUTE,
      1,
      10_000_000,
    ),
  };
}
