import { migration } from './migration';

/**
 * Rows a search writes under its request, and the account foreign key each of them carried.
 * The request itself keeps its own (it is what an account's deletion cascades through: results
 * and exchanges go with their request, persons with their result).
 */
const CHILD_ACCOUNT_KEYS = [
  ['eligibility_results', 'eligibility_results_account_id_fkey'],
  ['eligibility_persons', 'eligibility_persons_account_id_fkey'],
  ['insurer_exchanges', 'insurer_exchanges_account_id_fkey'],
] as const;

/**
 * Each of these foreign keys made every insert lock the account's row (`FOR KEY
 * SHARE`), several times per search, from every search of the account at once: a shared lock
 * taken by many transactions together is a multixact, which PostgreSQL pays for in CPU. The
 * `account_id` columns stay (tenant filters read them); what the keys guaranteed still holds
 * through the request's own key and the cascades (bench/README.md, "fourth round").
 */
export const SearchRowsWithoutAccountLocks1795530000000 = migration(
  'SearchRowsWithoutAccountLocks1795530000000',
  {
    async up(q) {
      for (const [table, key] of CHILD_ACCOUNT_KEYS)
        await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${key}`);
      // It served the account key's cascade; every read of the log goes by request
      // (insurer_exchanges_request_idx).
      await q.query(`DROP INDEX insurer_exchanges_account_idx`);
    },

    async down(q) {
      await q.query(`CREATE INDEX insurer_exchanges_account_idx ON insurer_exchanges (account_id)`);
      for (const [table, key] of CHILD_ACCOUNT_KEYS)
        await q.query(
          `ALTER TABLE ${table} ADD CONSTRAINT ${key}
         FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`,
        );
    },
  },
);
