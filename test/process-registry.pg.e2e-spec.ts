import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { ProcessRegistry } from '@/platform/jobs/process-registry';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

/**
 * Issue "where users outgrow one machine": the leases of a dead process are released at once,
 * not when they run out. A peer is dead when its heartbeat lapsed, or when it ran on this host
 * and its pid is gone; a live peer's leases are left alone.
 */
describe('process registry: dead peers’ leases released at once', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;
  let template: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
    template = await startSearch(t.app, a.auth, { patient: patient() });
    await waitForResult(t.app, a.auth, template);
  });
  afterAll(() => t.close());

  /** A peer registered with this heartbeat age, host and pid. */
  async function peer(ageMs: number, host: string, pid: number): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO service_processes (id, host, pid, role, started_at, heartbeat_at)
       VALUES ($1, $2, $3, 'all', now() - interval '1 hour', now() - ($4 || ' milliseconds')::interval)`,
      [id, host, pid, String(ageMs)],
    );
    return id;
  }

  /** A search stored as if `owner` had leased it for ten more minutes (its run in flight). */
  async function leasedTo(owner: string, uid: string): Promise<void> {
    await db.query(
      `INSERT INTO eligibility_requests (account_id, uid, kind, location_id, insurer_codes, query,
         status, attempts, job_due_at, lease_job, lease_owner)
       SELECT account_id, $2::varchar, kind, location_id, insurer_codes, query, 'processing', 1,
         now() + interval '10 minutes', 'search:l-peer.' || $2::varchar, $3::uuid
       FROM eligibility_requests WHERE uid = $1 AND account_id = $4`,
      [template, uid, owner, a.accountId],
    );
  }

  const statusOf = async (uid: string) =>
    (
      await db.query<{ status: string; lease_owner: string | null }[]>(
        'SELECT status, lease_owner FROM eligibility_requests WHERE uid = $1 AND account_id = $2',
        [uid, a.accountId],
      )
    )[0];

  it('releases the leases of a peer whose heartbeat lapsed and of a gone pid on this host, not of a live peer', async () => {
    const lapsed = await peer(60_000, 'another-host', 4242);
    // A pid that cannot exist (above Linux's pid_max), on this host: a kill -9 seen at once.
    const gone = await peer(0, hostname().slice(0, 255), 4_194_399);
    // Its heartbeat is in the future: it cannot lapse while the test runs, whoever reaps.
    const live = await peer(-3_600_000, 'another-host', 4243);
    await leasedTo(lapsed, 'lapsed-1');
    await leasedTo(gone, 'gone-1');
    await leasedTo(live, 'live-1');

    // (The app's own heartbeat may reap first: either way, at once.)
    await t.app.get(ProcessRegistry).reapDead();
    // Both run now (this process's lane or a worker), minutes before their leases would end.
    for (const uid of ['lapsed-1', 'gone-1'])
      expect((await waitForResult(t.app, a.auth, uid, 'v2', 15_000)).status).toBe('complete');
    expect(await statusOf('live-1')).toEqual({ status: 'processing', lease_owner: live });
    const left: { id: string }[] = await db.query(
      'SELECT id FROM service_processes WHERE id = ANY($1::uuid[])',
      [[lapsed, gone, live]],
    );
    expect(left.map((r) => r.id)).toEqual([live]);
    // The live peer's search is finished by nobody here: end it, so nothing waits after the test.
    await db.query(
      `UPDATE eligibility_requests SET status = 'error', error_code = 'unexpected_error'
       WHERE uid = 'live-1' AND account_id = $1`,
      [a.accountId],
    );
  });

  it('releases the leases of an owner no longer registered (a process that stopped)', async () => {
    await leasedTo(randomUUID(), 'unregistered-1');
    await t.app.get(ProcessRegistry).reapDead();
    expect((await waitForResult(t.app, a.auth, 'unregistered-1', 'v2', 15_000)).status).toBe(
      'complete',
    );
  });
});
