import { migration } from './migration';

/**
 * docs/api.md, Embedded sessions: a link may open the Schedule page (entry point `schedule`).
 * The constraint is the one `WebApp` wrote inline on the column (PostgreSQL named it).
 */
export const ScheduleEntryPoint1795564000000 = migration('ScheduleEntryPoint1795564000000', {
  async up(q) {
    await q.query(`ALTER TABLE iframe_tokens DROP CONSTRAINT iframe_tokens_entry_point_check`);
    await q.query(`
      ALTER TABLE iframe_tokens ADD CONSTRAINT iframe_tokens_entry_point_check
        CHECK (entry_point IN ('add_patient', 'insurers', 'passwords', 'schedule'))`);
  },

  async down(q) {
    // Links live five minutes: those to the schedule go with the entry point.
    await q.query(`DELETE FROM iframe_tokens WHERE entry_point = 'schedule'`);
    await q.query(`ALTER TABLE iframe_tokens DROP CONSTRAINT iframe_tokens_entry_point_check`);
    await q.query(`
      ALTER TABLE iframe_tokens ADD CONSTRAINT iframe_tokens_entry_point_check
        CHECK (entry_point IN ('add_patient', 'insurers', 'passwords'))`);
  },
});
