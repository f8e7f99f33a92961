import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { loadConfig } from '@/platform/config/env';
import { createTestApp, resetState, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';

/**
 * deploy/README.md, "Database roles": the schema belongs to a migration role, the service runs as
 * a role granted rows only (deploy/database-roles.sql). Two roles of this run, a database of
 * their own; the service runs on it as the application's role.
 */
const run = `${process.env.VISION_TEST_RUN ?? 'solo'}_w${process.env.JEST_WORKER_ID ?? '1'}`;
const [OWNER, APP] = [`vision_owner_${run}`, `vision_app_${run}`];
// Each role signs in with a password of its own, as deploy/README.md creates them: the embedded
// server, like a production one, asks for it (the machine's trusting server ignores it).
const passwords: Record<string, string> = {
  [OWNER]: randomBytes(16).toString('hex'),
  [APP]: randomBytes(16).toString('hex'),
};
const base = new URL(process.env.DATABASE_URL!);
const database = `vision_test_${run}_roles`;
const urlFor = (user: string) => {
  const url = new URL(base);
  url.username = user;
  url.password = passwords[user];
  url.pathname = `/${database}`;
  return url.toString();
};
const adminUrl = () => {
  const url = new URL(base);
  url.pathname = '/postgres';
  return url.toString();
};

async function asAdmin(sql: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function connect(user: string): Promise<Client> {
  const client = new Client({ connectionString: urlFor(user) });
  await client.connect();
  return client;
}

describe('the application database role (deploy/database-roles.sql)', () => {
  let t: TestApp;
  let app: Client;
  let owner: Client;

  beforeAll(async () => {
    await asAdmin(`CREATE ROLE "${OWNER}" LOGIN PASSWORD '${passwords[OWNER]}'`);
    await asAdmin(`CREATE ROLE "${APP}" LOGIN PASSWORD '${passwords[APP]}'`);
    await asAdmin(`CREATE DATABASE "${database}" OWNER "${OWNER}"`);
    const env = {
      DATABASE_URL: urlFor(APP),
      DATABASE_MIGRATION_URL: urlFor(OWNER),
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}_roles`,
    };
    // The migration role creates the schema, then grants the application's role its rows.
    await resetState(loadConfig({ ...process.env, ...env }));
    await promisify(execFile)('psql', [
      urlFor(OWNER),
      '--quiet',
      '-v',
      `app_role=${APP}`,
      '-f',
      join(__dirname, '..', 'deploy', 'database-roles.sql'),
    ]);
    t = await createTestApp({ env, keepState: true });
    [app, owner] = [await connect(APP), await connect(OWNER)];
  });
  afterAll(async () => {
    await Promise.all([app?.end(), owner?.end(), t?.close()]);
    await asAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await asAdmin(`DROP ROLE IF EXISTS "${APP}"`);
    await asAdmin(`DROP ROLE IF EXISTS "${OWNER}"`);
  });

  it('is enough to run the service: searches, reads and their audit events', async () => {
    const a = await createAccount(t.app);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const events = await request(t.app.getHttpServer())
      .get('/api/auth/v1/audit-events/')
      .set(a.auth)
      .expect(200);
    expect(events.body.result.map((e: any) => e.resource_id)).toContain(uid);
    const { rows } = await app.query<{ n: string }>(
      'SELECT count(*) AS n FROM audit_events WHERE account_id = $1',
      [a.accountId],
    );
    expect(Number(rows[0].n)).toBeGreaterThan(0);
    await expect(app.query(`SELECT current_user AS me`).then((r) => r.rows[0].me)).resolves.toBe(
      APP,
    );
  });

  it('cannot change, empty, or switch off the audit trail, however it asks', async () => {
    const refused: [string, RegExp][] = [
      [`UPDATE audit_events SET actor = 'someone else'`, /permission denied for table/],
      ['DELETE FROM audit_events', /permission denied for table/],
      ['TRUNCATE audit_events', /permission denied for table/],
      ['ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only', /must be owner/],
      ['ALTER TABLE audit_events DISABLE TRIGGER ALL', /must be owner/],
      ['DROP TRIGGER audit_events_append_only ON audit_events', /must be owner/],
      [
        `CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger
           LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
        // Refused before ownership is even asked: it may create nothing in the schema.
        /permission denied for schema public/,
      ],
      ['DROP TABLE audit_events', /must be owner/],
      [`ALTER TABLE audit_events OWNER TO "${APP}"`, /must be owner/],
      ['SET session_replication_role = replica', /permission denied to set parameter/],
      [`SET ROLE "${OWNER}"`, /permission denied to set role/],
      ['CREATE TABLE audit_events_copy (id int)', /permission denied for schema public/],
      [`DELETE FROM typeorm_migrations`, /permission denied for table/],
    ];
    for (const [sql, error] of refused) {
      await expect(app.query(sql)).rejects.toThrow(error);
    }
    const { rows } = await owner.query<{ owner: string; member: boolean }>(
      `SELECT tableowner AS owner, pg_has_role($1, tableowner, 'MEMBER') AS member
         FROM pg_tables WHERE tablename = 'audit_events'`,
      [APP],
    );
    expect(rows).toEqual([{ owner: OWNER, member: false }]);
  });

  it('the owner could switch the trigger off: the reason the service must not run as it', async () => {
    await owner.query('BEGIN');
    try {
      await owner.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only');
      await expect(owner.query('DELETE FROM audit_events')).resolves.toBeDefined();
    } finally {
      await owner.query('ROLLBACK');
    }
    await expect(owner.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
  });

  it('reads and inserts the audit trail: the two privileges it holds there', async () => {
    const { rows } = await owner.query<{ privilege_type: string }>(
      `SELECT privilege_type FROM information_schema.role_table_grants
        WHERE table_name = 'audit_events' AND grantee = $1 ORDER BY 1`,
      [APP],
    );
    expect(rows.map((r) => r.privilege_type)).toEqual(['INSERT', 'SELECT']);
  });
});
