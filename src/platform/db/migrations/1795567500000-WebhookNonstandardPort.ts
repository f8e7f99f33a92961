import { migration } from './migration';

/**
 * docs/api.md, Webhooks: a webhook reaches a public address on a port other than 443 and 80 only
 * when it says `allow_nonstandard_port`. Existing webhooks start without it (false): one already
 * pointing at such a port has its attempts refused until the setting is turned on, as a new one
 * would be refused when saved.
 */
export const WebhookNonstandardPort1795567500000 = migration(
  'WebhookNonstandardPort1795567500000',
  {
    async up(q) {
      await q.query(
        `ALTER TABLE webhooks ADD COLUMN allow_nonstandard_port boolean NOT NULL DEFAULT false`,
      );
    },

    async down(q) {
      await q.query(`ALTER TABLE webhooks DROP COLUMN allow_nonstandard_port`);
    },
  },
);
