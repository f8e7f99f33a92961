import { migration } from './migration';

/**
 * docs/api.md, Plan designs: the benefit tree of each group an account's verifiers answered for,
 * per insurer, without what one member had used. One design per account, insurer and group (the
 * group id, else the group's name); a later task of the same group replaces it. No patient data.
 */
export const PlanDesigns1795561000000 = migration('PlanDesigns1795561000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE plan_designs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        insurer_code varchar(64) NOT NULL,
        group_key varchar(200) NOT NULL CONSTRAINT plan_designs_group_key_check CHECK (group_key <> ''),
        plan_name varchar(200) NOT NULL,
        plan_group varchar(200),
        plan_group_id varchar(64),
        items jsonb NOT NULL CONSTRAINT plan_designs_items_check CHECK (jsonb_typeof(items) = 'array'),
        used_count integer NOT NULL DEFAULT 0 CONSTRAINT plan_designs_used_count_check CHECK (used_count >= 0),
        last_used_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT plan_designs_group_key UNIQUE (account_id, insurer_code, group_key)
      )`);
    // The keyset lists of an account, all insurers or one.
    await q.query(`
      CREATE INDEX plan_designs_account_created_idx
        ON plan_designs (account_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE INDEX plan_designs_account_insurer_created_idx
        ON plan_designs (account_id, insurer_code, created_at DESC, id DESC)`);
  },

  async down(q) {
    await q.query(`DROP TABLE plan_designs`);
  },
});
