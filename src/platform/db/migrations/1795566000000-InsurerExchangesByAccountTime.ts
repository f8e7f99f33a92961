import { migration } from './migration';

/**
 * The insurer health of an account (docs/api.md, Insurer health) reads the account's
 * calls of the last hour; this index keeps that read to the account's own rows of the window.
 * The account-only index dropped by SearchRowsWithoutAccountLocks1795530000000 served a foreign
 * key's cascade, not a read; this one is one more entry per call written.
 */
export const InsurerExchangesByAccountTime1795566000000 = migration(
  'InsurerExchangesByAccountTime1795566000000',
  {
    async up(q) {
      await q.query(
        `CREATE INDEX insurer_exchanges_account_started_idx ON insurer_exchanges (account_id, started_at)`,
      );
    },

    async down(q) {
      await q.query(`DROP INDEX insurer_exchanges_account_started_idx`);
    },
  },
);
