import { migration } from './migration';

/**
 * docs/api.md, Claims, an 837P a clearinghouse accepts: a location's taxonomy (PRV*BI) and rendering
 * provider (2310B), a claim's own rendering provider, why a claim went on paper, and the control numbers a claim's
 * interchange keeps on every retry. Existing addresses keep their ZIP as stored (a 5-digit one
 * sends the location's claims on paper until the ZIP+4 is given); new ones are checked by the API.
 */
export const ClearinghouseReadyClaims1795490200000 = migration(
  'ClearinghouseReadyClaims1795490200000',
  {
    async up(q) {
      await q.query(`
      ALTER TABLE locations
        ADD COLUMN taxonomy_code char(10) NOT NULL DEFAULT '152W00000X'
          CONSTRAINT locations_taxonomy_code_check CHECK (taxonomy_code ~ '^[0-9A-Z]{9}X$'),
        ADD COLUMN rendering_npi varchar(10)
          CONSTRAINT locations_rendering_npi_check CHECK (rendering_npi ~ '^[0-9]{10}$'),
        ADD COLUMN rendering_first_name varchar(35),
        ADD COLUMN rendering_last_name varchar(60),
        ADD COLUMN rendering_taxonomy_code char(10)
          CONSTRAINT locations_rendering_taxonomy_check
          CHECK (rendering_taxonomy_code ~ '^[0-9A-Z]{9}X$'),
        ADD CONSTRAINT locations_rendering_provider_check CHECK (
          (rendering_npi IS NULL) = (rendering_first_name IS NULL)
          AND (rendering_first_name IS NULL) = (rendering_last_name IS NULL)
          AND (rendering_taxonomy_code IS NULL OR rendering_npi IS NOT NULL)),
        ADD CONSTRAINT locations_zipcode_check CHECK (zipcode ~ '^[0-9]{5}(-[0-9]{4})?$')`);
      await q.query(`
      ALTER TABLE claims
        ADD COLUMN rendering_provider jsonb,
        ADD COLUMN submission_detail varchar(1000),
        ADD COLUMN x12_control_number integer
          CONSTRAINT claims_x12_control_number_check
          CHECK (x12_control_number BETWEEN 1 AND 999999999),
        ADD COLUMN x12_created_at timestamptz(3),
        ADD CONSTRAINT claims_x12_envelope_check
          CHECK ((x12_control_number IS NULL) = (x12_created_at IS NULL))`);
    },

    async down(q) {
      await q.query(`
      ALTER TABLE claims DROP CONSTRAINT claims_x12_envelope_check,
        DROP COLUMN rendering_provider, DROP COLUMN submission_detail, DROP COLUMN x12_control_number, DROP COLUMN x12_created_at`);
      await q.query(`
      ALTER TABLE locations DROP CONSTRAINT locations_zipcode_check,
        DROP CONSTRAINT locations_rendering_provider_check,
        DROP COLUMN taxonomy_code, DROP COLUMN rendering_npi, DROP COLUMN rendering_first_name,
        DROP COLUMN rendering_last_name, DROP COLUMN rendering_taxonomy_code`);
    },
  },
);
