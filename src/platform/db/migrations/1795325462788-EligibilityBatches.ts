import { migration } from './migration';

/**
 * docs/api.md, Batches: batch eligibility. A batch is a row of its own with counters kept by the
 * transaction that finishes each item (so completion happens once, under the batch's row lock);
 * its items are ordinary eligibility requests that carry the batch id.
 * - batch_key: the item's key in the batch (the keyset paginator pages on a uuid); keys are
 *   assigned in descending order of position, so newest-first paging lists items in upload order.
 * - started_at: when an item's search first ran; the watchdog times batch items from there (an
 *   item may wait in line longer than the watchdog's limit).
 */
export const EligibilityBatches1795325462788 = migration('EligibilityBatches1795325462788', {
  async up(q) {
    await q.query(`
      CREATE TABLE eligibility_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        uid varchar(256) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'complete')),
        item_count integer NOT NULL CHECK (item_count BETWEEN 1 AND 10000),
        processing_count integer NOT NULL CHECK (processing_count >= 0),
        complete_count integer NOT NULL DEFAULT 0 CHECK (complete_count >= 0),
        error_count integer NOT NULL DEFAULT 0 CHECK (error_count >= 0),
        body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT eligibility_batches_account_uid_key UNIQUE (account_id, uid),
        CONSTRAINT eligibility_batches_counts_check
          CHECK (processing_count + complete_count + error_count = item_count),
        CONSTRAINT eligibility_batches_complete_check
          CHECK ((status = 'complete') = (processing_count = 0 AND completed_at IS NOT NULL))
      )`);
    await q.query(
      `CREATE INDEX eligibility_batches_account_created_idx ON eligibility_batches (account_id, created_at DESC, id DESC)`,
    );
    await q.query(`
      ALTER TABLE eligibility_requests
        ADD COLUMN batch_id uuid REFERENCES eligibility_batches(id) ON DELETE CASCADE,
        ADD COLUMN batch_key uuid,
        ADD COLUMN started_at timestamptz,
        ADD CONSTRAINT eligibility_requests_batch_key_check CHECK ((batch_id IS NULL) = (batch_key IS NULL))`);
    await q.query(
      `CREATE INDEX eligibility_requests_batch_items_idx ON eligibility_requests (batch_id, created_at DESC, batch_key DESC) WHERE batch_id IS NOT NULL`,
    );
  },

  async down(q) {
    await q.query(`DROP INDEX eligibility_requests_batch_items_idx`);
    await q.query(`DELETE FROM eligibility_requests WHERE batch_id IS NOT NULL`);
    await q.query(`
      ALTER TABLE eligibility_requests
        DROP CONSTRAINT eligibility_requests_batch_key_check,
        DROP COLUMN started_at, DROP COLUMN batch_key, DROP COLUMN batch_id`);
    await q.query(`DROP TABLE eligibility_batches`);
  },
});
