import { ConfigError, loadConfig } from './env';

describe('cost budgets (docs/api.md, Conventions)', () => {
  it('takes both budgets from the environment and refuses a bad one', () => {
    const config = loadConfig({ BATCH_ITEMS_PER_HOUR: '15', NEXT_ELIGIBLE_COST_PER_MINUTE: '30' });
    expect(config.costLimits).toEqual({ batchItemsPerHour: 15, nextEligibleCostPerMinute: 30 });
    expect(() => loadConfig({ BATCH_ITEMS_PER_HOUR: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ NEXT_ELIGIBLE_COST_PER_MINUTE: 'many' })).toThrow(
      /NEXT_ELIGIBLE_COST_PER_MINUTE/,
    );
  });
});
