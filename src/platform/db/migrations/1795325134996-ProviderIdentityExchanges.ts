import { migration } from './migration';

/**
 * docs/api.md, Real insurers: a location's provider identity (a real insurer is asked under its NPI), and the
 * insurer exchange log: every call to an insurer, per eligibility request. The log holds patient
 * data (the 270 and 271); it goes with its request and its account.
 */
export const ProviderIdentityExchanges1795325134996 = migration(
  'ProviderIdentityExchanges1795325134996',
  {
    async up(q) {
      await q.query(`
      ALTER TABLE locations
        ADD COLUMN npi varchar(10) CONSTRAINT locations_npi_check CHECK (npi ~ '^[0-9]{10}$'),
        ADD COLUMN organization_name varchar(60),
        ADD COLUMN tax_id varchar(9) CONSTRAINT locations_tax_id_check CHECK (tax_id ~ '^[0-9]{9}$')`);
      await q.query(`
      CREATE TABLE insurer_exchanges (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        request_id bigint NOT NULL REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        insurer_code varchar(64) NOT NULL,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL CHECK (duration_ms >= 0),
        url text,
        request text,
        response text,
        http_status integer,
        aaa_codes text[] NOT NULL DEFAULT '{}',
        outcome varchar(16) NOT NULL CHECK (outcome IN
          ('found', 'not_found', 'rejected', 'unavailable', 'unexpected', 'deferred')),
        error text,
        trace_number varchar(50)
      )`);
      await q.query(
        `CREATE INDEX insurer_exchanges_request_idx ON insurer_exchanges (request_id, id)`,
      );
      await q.query(`CREATE INDEX insurer_exchanges_account_idx ON insurer_exchanges (account_id)`);
    },

    async down(q) {
      await q.query(`DROP TABLE insurer_exchanges`);
      await q.query(
        `ALTER TABLE locations DROP COLUMN npi, DROP COLUMN organization_name, DROP COLUMN tax_id`,
      );
    },
  },
);
