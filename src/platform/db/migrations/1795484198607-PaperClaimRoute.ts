import { migration } from './migration';

/**
 * docs/api.md, Errors, the paper route: a paper claim waits `ready_to_mail` until someone marks it
 * mailed; the CMS-1500's boxes 32 and 33 print the location's street address; an account may
 * override an insurer's claims mailing address (the shipped table's otherwise).
 */
export const PaperClaimRoute1795484198607 = migration('PaperClaimRoute1795484198607', {
  async up(q) {
    await q.query(`
      ALTER TABLE claims
        DROP CONSTRAINT claims_status_check,
        ADD CONSTRAINT claims_status_check CHECK (status IN ('ready', 'ready_to_mail',
          'submitted', 'submission_failed', 'accepted', 'rejected', 'paid', 'denied'))`);
    await q.query(`
      ALTER TABLE locations
        ADD COLUMN address_line1 varchar(55),
        ADD COLUMN address_line2 varchar(55),
        ADD COLUMN city varchar(30),
        ADD COLUMN state char(2),
        ADD COLUMN zipcode varchar(10),
        ADD CONSTRAINT locations_address_check CHECK (
          (address_line1 IS NULL) = (city IS NULL) AND (city IS NULL) = (state IS NULL)
          AND (state IS NULL) = (zipcode IS NULL) AND (address_line2 IS NULL OR address_line1 IS NOT NULL))`);
    await q.query(`
      ALTER TABLE account_insurers
        ADD COLUMN claims_mailing_address varchar(300)
          CONSTRAINT account_insurers_mailing_address_check
          CHECK (claims_mailing_address IS NULL OR btrim(claims_mailing_address) <> '')`);
  },

  async down(q) {
    await q.query(`ALTER TABLE account_insurers DROP COLUMN claims_mailing_address`);
    await q.query(`
      ALTER TABLE locations DROP CONSTRAINT locations_address_check,
        DROP COLUMN address_line1, DROP COLUMN address_line2, DROP COLUMN city,
        DROP COLUMN state, DROP COLUMN zipcode`);
    // A claim waiting to be mailed goes back to the old route's state: submitted on paper.
    await q.query(`UPDATE claims SET status = 'submitted' WHERE status = 'ready_to_mail'`);
    await q.query(`
      ALTER TABLE claims
        DROP CONSTRAINT claims_status_check,
        ADD CONSTRAINT claims_status_check CHECK (status IN
          ('ready', 'submitted', 'submission_failed', 'accepted', 'rejected', 'paid', 'denied'))`);
  },
});
