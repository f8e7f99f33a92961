import { migration } from './migration';

/**
 * docs/api.md, Embedded sessions: a link may open the Counter of one request's person (entry
 * point `quote`); the token names them, and only a `quote` token does.
 */
export const QuoteEntryPoint1795570100000 = migration('QuoteEntryPoint1795570100000', {
  async up(q) {
    await q.query(
      `ALTER TABLE iframe_tokens ADD COLUMN request_uid text, ADD COLUMN person_id bigint`,
    );
    await q.query(`ALTER TABLE iframe_tokens DROP CONSTRAINT iframe_tokens_entry_point_check`);
    await q.query(`
      ALTER TABLE iframe_tokens ADD CONSTRAINT iframe_tokens_entry_point_check
        CHECK (entry_point IN ('add_patient', 'insurers', 'passwords', 'schedule', 'quote'))`);
    await q.query(`
      ALTER TABLE iframe_tokens ADD CONSTRAINT iframe_tokens_quote_target
        CHECK ((entry_point = 'quote') = (request_uid IS NOT NULL AND person_id IS NOT NULL))`);
  },

  async down(q) {
    // Links live five minutes: those to a Counter go with the entry point.
    await q.query(`DELETE FROM iframe_tokens WHERE entry_point = 'quote'`);
    await q.query(`ALTER TABLE iframe_tokens DROP CONSTRAINT iframe_tokens_quote_target`);
    await q.query(`ALTER TABLE iframe_tokens DROP CONSTRAINT iframe_tokens_entry_point_check`);
    await q.query(`
      ALTER TABLE iframe_tokens ADD CONSTRAINT iframe_tokens_entry_point_check
        CHECK (entry_point IN ('add_patient', 'insurers', 'passwords', 'schedule'))`);
    await q.query(`ALTER TABLE iframe_tokens DROP COLUMN request_uid, DROP COLUMN person_id`);
  },
});
