import { migration } from './migration';

/** The queue tables DbQueue leases rows of: each lease now records the process that took it. */
const LEASED_TABLES = ['eligibility_requests', 'webhook_deliveries', 'mail_messages', 'claims'];

/**
 * Processes register with a heartbeat (`service_processes`), and every lease names its owner
 * (`lease_owner`), so the leases of a process that died are released at once by the others
 * instead of waiting for the lease to run out (RELIABILITY.md).
 */
export const ServiceProcesses1795520000000 = migration('ServiceProcesses1795520000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE service_processes (
        id uuid PRIMARY KEY,
        host varchar(255) NOT NULL,
        pid integer NOT NULL,
        role varchar(16) NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
    for (const table of LEASED_TABLES)
      await q.query(`ALTER TABLE ${table} ADD COLUMN lease_owner uuid`);
  },

  async down(q) {
    for (const table of LEASED_TABLES)
      await q.query(`ALTER TABLE ${table} DROP COLUMN lease_owner`);
    await q.query(`DROP TABLE service_processes`);
  },
});
