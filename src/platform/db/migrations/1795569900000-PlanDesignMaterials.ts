import { migration } from './migration';

/**
 * docs/api.md, The counter: a plan design keeps its group's materials price list, entered once by
 * a verifier and taken by every later answer of the group that states none. Existing designs
 * start without one (null).
 */
export const PlanDesignMaterials1795569900000 = migration('PlanDesignMaterials1795569900000', {
  async up(q) {
    await q.query(`ALTER TABLE plan_designs ADD COLUMN materials jsonb`);
  },

  async down(q) {
    await q.query(`ALTER TABLE plan_designs DROP COLUMN materials`);
  },
});
