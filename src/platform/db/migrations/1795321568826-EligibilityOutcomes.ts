import { migration } from './migration';

/**
 * Per-insurer outcomes kept between the attempts of a search, so a Universal Search retry asks
 * again only the insurers that were unavailable (a real insurer bills every call). Cleared when
 * the request finishes: the results tables hold the answer from then on.
 */
export const EligibilityOutcomes1795321568826 = migration('EligibilityOutcomes1795321568826', {
  async up(q) {
    await q.query(`ALTER TABLE eligibility_requests ADD COLUMN insurer_outcomes jsonb`);
  },

  async down(q) {
    await q.query(`ALTER TABLE eligibility_requests DROP COLUMN insurer_outcomes`);
  },
});
