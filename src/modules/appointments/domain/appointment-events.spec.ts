import fc from 'fast-check';
import type { AccountsService } from '@/modules/accounts';
import type { WebhookOutbox } from '@/modules/webhooks';
import type { Appointment } from '../store/appointment.entity';
import { AppointmentEvents, LOCATION_CODES } from './appointment-events';

/** Locations by account and id, as AccountsService answers them; counts the look-ups. */
function fakeAccounts(codes: Map<string, string>) {
  const lookups: string[] = [];
  const accounts = {
    getLocationById: (accountId: string, id: string) => {
      lookups.push(`${accountId} ${id}`);
      const code = codes.get(`${accountId} ${id}`);
      return Promise.resolve(code === undefined ? null : { code });
    },
  } as unknown as AccountsService;
  return { accounts, lookups };
}

const appointment = (accountId: string, locationId: string): Appointment =>
  ({
    accountId,
    locationId,
    externalId: 'visit-1',
    startsAt: new Date('2026-12-01T15:00:00Z'),
    endsAt: null,
    status: 'booked',
    services: [],
    patientCode: null,
    patient: null,
    insurerCodes: [],
    coverage: null,
    coverageState: 'unchecked',
    sourceUpdatedAt: null,
    nextCheckAt: null,
    autoChecks: true,
    createdAt: new Date('2026-11-20T09:00:00Z'),
    updatedAt: new Date('2026-11-20T09:00:00Z'),
  }) as unknown as Appointment;

describe('the location code of an appointment’s answer (AppointmentEvents)', () => {
  it('is each account’s own, read once per account and location', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 40,
        }),
        async (visits) => {
          // The same location ids in every account, each account with codes of its own.
          const codes = new Map<string, string>();
          for (let a = 0; a < 4; a++)
            for (let l = 0; l < 4; l++) codes.set(`acct-${a} loc-${l}`, `LOC-${a}-${l}`);
          const { accounts, lookups } = fakeAccounts(codes);
          const events = new AppointmentEvents({} as WebhookOutbox, accounts);
          for (const [a, l] of visits) {
            const answer = await events.response(appointment(`acct-${a}`, `loc-${l}`), {
              answers: true,
            });
            expect(answer.location_code).toBe(`LOC-${a}-${l}`);
          }
          expect(lookups.length).toBe(new Set(visits.map(([a, l]) => `${a} ${l}`)).size);
        },
      ),
    );
  });

  it('keeps at most LOCATION_CODES codes, then starts again', async () => {
    const codes = new Map<string, string>();
    for (let i = 0; i <= LOCATION_CODES; i++) codes.set(`acct loc-${i}`, `LOC-${i}`);
    const { accounts, lookups } = fakeAccounts(codes);
    const events = new AppointmentEvents({} as WebhookOutbox, accounts);
    for (let i = 0; i < LOCATION_CODES; i++)
      await events.response(appointment('acct', `loc-${i}`), { answers: true });
    expect(lookups).toHaveLength(LOCATION_CODES);
    // Full: the next new location empties the map, so the first is read again.
    await events.response(appointment('acct', `loc-${LOCATION_CODES}`), { answers: true });
    await events.response(appointment('acct', 'loc-0'), { answers: true });
    expect(lookups).toHaveLength(LOCATION_CODES + 2);
    expect(lookups.at(-1)).toBe('acct loc-0');
  });
});
