import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { AppointmentsSync } from '@/modules/appointments/domain/appointments-sync';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { webActor } from '@/modules/appointments/domain/appointment-access';

/**
 * The counts of a sync (docs/api.md, Appointments), as a property over the service against the
 * real database: for any appointments stored beforehand (in the window or not, cancelled or not)
 * and any list (new ids, stored ones changed or not, items refused for a bad date), created +
 * updated + unchanged is the number of valid items listed, and cancelled is the number of
 * appointments stored in the window, not listed and not cancelled already.
 */

const IDS = Array.from({ length: 10 }, (_, i) => `visit-${i}`);
const WINDOW = { from: '2026-11-24T00:00:00-06:00', to: '2026-11-25T00:00:00-06:00' };
const STARTS = { in: '2026-11-24T10:00:00-06:00', out: '2026-11-25T10:00:00-06:00' };
const STATUSES = ['booked', 'arrived', 'cancelled'] as const;

interface Stored {
  id: string;
  inWindow: boolean;
  status: (typeof STATUSES)[number];
}
interface Listed extends Stored {
  valid: boolean;
}

const body = (a: Stored, valid = true) => ({
  external_id: a.id,
  starts_at: valid ? (a.inWindow ? STARTS.in : STARTS.out) : '2026-11-24T10:00:00',
  status: a.status,
  patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
  insurer_code: 'insurer:vision:vsp',
});

const appointment = {
  id: fc.constantFrom(...IDS),
  inWindow: fc.boolean(),
  status: fc.constantFrom(...STATUSES),
};
const storedArb = fc.uniqueArray(fc.record(appointment), { selector: (a) => a.id, maxLength: 10 });
const listedArb = fc.uniqueArray(
  fc.record({
    ...appointment,
    // Mostly valid; an invalid item has a date without its offset.
    valid: fc.oneof(
      { weight: 3, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  }),
  { selector: (a) => a.id, maxLength: 10 },
);

describe('appointments sync: what it counts (property, PostgreSQL)', () => {
  let t: TestContext;
  let syncs: AppointmentsSync;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestContext();
    syncs = t.ctx.get(AppointmentsSync);
    db = t.ctx.get(DataSource);
  });
  afterAll(() => t.close());

  it('created + updated + unchanged = the valid items listed; cancelled = stored in the window, not listed, not cancelled', async () => {
    await fc.assert(
      fc.asyncProperty(storedArb, listedArb, async (stored: Stored[], listed: Listed[]) => {
        const { accountId, userId } = await createPractice(t.ctx);
        const staff = webActor(userId);
        // What was there before: stored by a sync of a wide window (an empty account: it cancels nothing).
        const before = await syncs.sync(
          accountId,
          {
            from: '2026-11-01T00:00:00Z',
            to: '2026-12-01T00:00:00Z',
            appointments: stored.map((a) => body(a)),
          },
          staff,
        );
        expect(before).toMatchObject({ created: stored.length, cancelled: 0, errors: [] });

        const result = await syncs.sync(
          accountId,
          {
            ...WINDOW,
            appointments: listed.map((a) => body(a, a.valid)),
          },
          staff,
        );

        const byId = new Map(stored.map((a) => [a.id, a]));
        const valid = listed.filter((a) => a.valid);
        const listedIds = new Set(listed.map((a) => a.id));
        const same = (a: Stored, b: Stored) => a.inWindow === b.inWindow && a.status === b.status;
        expect(result.created + result.updated + result.unchanged).toBe(valid.length);
        expect(result).toEqual({
          created: valid.filter((a) => !byId.has(a.id)).length,
          updated: valid.filter((a) => byId.has(a.id) && !same(a, byId.get(a.id)!)).length,
          unchanged: valid.filter((a) => byId.has(a.id) && same(a, byId.get(a.id)!)).length,
          cancelled: stored.filter(
            (a) => a.inWindow && a.status !== 'cancelled' && !listedIds.has(a.id),
          ).length,
          errors: listed.flatMap((a, index) =>
            a.valid ? [] : [{ index, errors: { starts_at: { $: [expect.any(String)] } } }],
          ),
        });

        // And the rows say the same: each listed valid item as sent, each unlisted one of the
        // window cancelled, everything else as it was.
        const rows: { external_id: string; status: string }[] = await db.query(
          'SELECT external_id, status FROM appointments WHERE account_id = $1',
          [accountId],
        );
        const expected = new Map<string, string>();
        for (const a of stored)
          expected.set(a.id, a.inWindow && !listedIds.has(a.id) ? 'cancelled' : a.status);
        for (const a of valid) expected.set(a.id, a.status);
        expect(new Map(rows.map((r) => [r.external_id, r.status]))).toEqual(expected);
      }),
      { seed: 20261124, numRuns: 20 },
    );
  });
});
