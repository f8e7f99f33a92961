import { migration } from './migration';

/**
 * An 837P's control number (ISA13 = GS06 = ST02) was a random 9-digit number, and the
 * 999, TA1 and 277CA reports that come back name a claim by it: two claims with the same number
 * (another account's, by chance) were moved by one report. The numbers now come from one
 * sequence of the deployment, 1 to 999999999 (ISA13 is 9 digits), starting again at 1 after
 * 999999999 (a claim that old has long had its reports).
 */
export const X12ControlNumbers1795551000000 = migration('X12ControlNumbers1795551000000', {
  async up(q) {
    await q.query(
      `CREATE SEQUENCE x12_control_numbers AS integer MINVALUE 1 MAXVALUE 999999999 CYCLE`,
    );
  },

  async down(q) {
    await q.query(`DROP SEQUENCE x12_control_numbers`);
  },
});
