import { migration } from './migration';

/**
 * A person's plan was stored twice, in their row (jsonb, parsed and compressed by
 * PostgreSQL) and in the request's V2 body, which holds it again. New rows keep it in the body
 * only; a row keeps its own copy where a verifier gave the plan (docs/api.md, Insurers and assisted verification), since a details
 * request answers that plan again from the row. Rows stored before keep theirs. The plan
 * token's unique index goes too.
 */
export const PlansStoredOnce1795540000000 = migration('PlansStoredOnce1795540000000', {
  async up(q) {
    await q.query(`ALTER TABLE eligibility_persons ALTER COLUMN plan DROP NOT NULL`);
    // Nothing looks a person up by plan token: the token is 32 random bytes (docs/api.md, Eligibility: opaque,
    // unguessable), so its unique index only cost every in-network person one more insertion.
    await q.query(
      `ALTER TABLE eligibility_persons DROP CONSTRAINT eligibility_persons_plan_token_key`,
    );
  },

  async down(q) {
    // Rows stored since have their plan in their request's V2 body only: nothing here could put
    // an exact copy back, so the rollback refuses rather than invent one.
    const [{ n }]: { n: number }[] = await q.query(
      `SELECT count(*)::int AS n FROM eligibility_persons WHERE plan IS NULL`,
    );
    if (n > 0) throw new Error(`${n} stored persons keep their plan in their request's body only`);
    await q.query(`ALTER TABLE eligibility_persons ALTER COLUMN plan SET NOT NULL`);
  },
});
