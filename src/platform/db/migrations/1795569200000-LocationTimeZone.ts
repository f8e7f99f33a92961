import { migration } from './migration';

/**
 * docs/api.md, Locations: a location may name its IANA time zone (`America/Chicago`), in which
 * the web pages show its visits. Checked by the API against the runtime's zone list; the column
 * holds the name as given.
 */
export const LocationTimeZone1795569200000 = migration('LocationTimeZone1795569200000', {
  async up(q) {
    await q.query(`ALTER TABLE locations ADD COLUMN time_zone varchar(64)`);
  },

  async down(q) {
    await q.query(`ALTER TABLE locations DROP COLUMN time_zone`);
  },
});
