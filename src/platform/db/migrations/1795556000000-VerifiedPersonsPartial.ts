import { migration } from './migration';

/**
 * A verifier enters what the insurer's portal shows, which rarely includes a person's
 * sex, address or phone. A person found by a verifier may have none of them (null in the
 * answer, docs/api.md "Verification tasks"); persons an insurer answered keep theirs.
 */
export const VerifiedPersonsPartial1795556000000 = migration(
  'VerifiedPersonsPartial1795556000000',
  {
    async up(q) {
      await q.query(
        `ALTER TABLE eligibility_persons ALTER COLUMN sex DROP NOT NULL,
         ALTER COLUMN address DROP NOT NULL, ALTER COLUMN phone DROP NOT NULL`,
      );
    },

    async down(q) {
      // Persons stored since may lack them: nothing could put what the verifier did not see back,
      // so the rollback refuses rather than invent it.
      const [{ n }]: { n: number }[] = await q.query(
        `SELECT count(*)::int AS n FROM eligibility_persons
       WHERE sex IS NULL OR address IS NULL OR phone IS NULL`,
      );
      if (n > 0) throw new Error(`${n} stored persons have no sex, address or phone`);
      await q.query(
        `ALTER TABLE eligibility_persons ALTER COLUMN sex SET NOT NULL,
         ALTER COLUMN address SET NOT NULL, ALTER COLUMN phone SET NOT NULL`,
      );
    },
  },
);
