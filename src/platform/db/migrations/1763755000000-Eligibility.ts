import { migration } from './migration';

export const Eligibility1763755000000 = migration('Eligibility1763755000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE eligibility_requests (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        uid varchar(256) NOT NULL,
        kind varchar(16) NOT NULL DEFAULT 'search' CHECK (kind IN ('search', 'details')),
        parent_id bigint REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        location_id uuid NOT NULL REFERENCES locations(id),
        insurer_codes text[] NOT NULL CHECK (cardinality(insurer_codes) BETWEEN 1 AND 10),
        query jsonb NOT NULL,
        target jsonb,
        status varchar(16) NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'complete', 'error')),
        error_code varchar(32) CHECK (error_code IN ('insurer_problem', 'unexpected_error')),
        attempts integer NOT NULL DEFAULT 0,
        job_due_at timestamptz NOT NULL DEFAULT now(),
        body_v1 text,
        body_v2 text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT eligibility_requests_account_uid_key UNIQUE (account_id, uid),
        CONSTRAINT eligibility_requests_error_state_check CHECK ((status = 'error') = (error_code IS NOT NULL)),
        CONSTRAINT eligibility_requests_details_check CHECK ((kind = 'details') = (parent_id IS NOT NULL))
      )`);
    // The maintenance loop only ever looks at unfinished requests.
    await q.query(
      `CREATE INDEX eligibility_requests_processing_idx ON eligibility_requests (job_due_at) WHERE status = 'processing'`,
    );
    await q.query(
      `CREATE INDEX eligibility_requests_account_created_idx ON eligibility_requests (account_id, created_at DESC)`,
    );
    await q.query(
      `CREATE INDEX eligibility_requests_parent_idx ON eligibility_requests (parent_id) WHERE parent_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE eligibility_results (
        id bigserial PRIMARY KEY,
        request_id bigint NOT NULL REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        position smallint NOT NULL,
        insurer_code varchar(64) NOT NULL,
        status varchar(20) NOT NULL CHECK (status IN ('active', 'inactive', 'out_of_network', 'unavailable')),
        plan_name text NOT NULL,
        plan_group text NOT NULL,
        plan_group_id text,
        plan_begin_date date NOT NULL,
        plan_end_date date,
        plan_refresh_date date,
        plan_is_active boolean NOT NULL,
        CONSTRAINT eligibility_results_position_key UNIQUE (request_id, position)
      )`);
    await q.query(`
      CREATE TABLE eligibility_persons (
        id bigserial PRIMARY KEY,
        result_id bigint NOT NULL REFERENCES eligibility_results(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        position smallint NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        dob date NOT NULL,
        sex text NOT NULL,
        member_id text,
        ssn_last_four text,
        type text NOT NULL,
        address jsonb NOT NULL,
        email text,
        phone text NOT NULL,
        is_active boolean,
        insurer_state varchar(3) NOT NULL CHECK (insurer_state IN ('inn', 'oon')),
        plan jsonb NOT NULL,
        plan_token char(64) CONSTRAINT eligibility_persons_plan_token_key UNIQUE,
        plan_token_expired_at date,
        CONSTRAINT eligibility_persons_position_key UNIQUE (result_id, position),
        CONSTRAINT eligibility_persons_token_check CHECK ((insurer_state = 'inn') = (plan_token IS NOT NULL))
      )`);
  },

  async down(q) {
    await q.query(`DROP TABLE eligibility_persons`);
    await q.query(`DROP TABLE eligibility_results`);
    await q.query(`DROP TABLE eligibility_requests`);
  },
});
