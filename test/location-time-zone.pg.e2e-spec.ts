import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const LOCATIONS = '/api/auth/v1/locations/';
const MESSAGE = 'Enter an IANA time zone name, e.g. America/Chicago.';

/** docs/api.md, Locations: a location may name its IANA time zone. */
describe("a location's time zone", () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    a = await createAccount(t.app);
  });
  afterAll(() => t?.close());

  it('stores an IANA name, answers it, changes it and clears it with null', async () => {
    const created = await http()
      .post(LOCATIONS)
      .set(a.auth)
      .send({ title: 'Chicago', time_zone: 'America/Chicago' })
      .expect(201);
    expect(created.body.time_zone).toBe('America/Chicago');
    const code = created.body.code as string;
    const listed = await http().get(LOCATIONS).set(a.auth).expect(200);
    expect(listed.body.result.find((l: { code: string }) => l.code === code).time_zone).toBe(
      'America/Chicago',
    );
    // A location without one answers null.
    expect(
      listed.body.result.find((l: { code: string }) => l.code === a.locationCode).time_zone,
    ).toBeNull();
    const moved = await http()
      .patch(`${LOCATIONS}${code}/`)
      .set(a.auth)
      .send({ time_zone: 'America/Denver' })
      .expect(200);
    expect(moved.body.time_zone).toBe('America/Denver');
    const untouched = await http()
      .patch(`${LOCATIONS}${code}/`)
      .set(a.auth)
      .send({ title: 'Chicago Loop' })
      .expect(200);
    expect(untouched.body.time_zone).toBe('America/Denver');
    const cleared = await http()
      .patch(`${LOCATIONS}${code}/`)
      .set(a.auth)
      .send({ time_zone: null })
      .expect(200);
    expect(cleared.body.time_zone).toBeNull();
  });

  it.each(['Mars/Olympus_Mons', '+05:00', 'CST 6', 'America/Chicago/'])(
    'refuses %j with the field error, and stores nothing',
    async (zone) => {
      const res = await http()
        .post(LOCATIONS)
        .set(a.auth)
        .send({ title: 'Nowhere', time_zone: zone })
        .expect(400);
      expect(res.body).toEqual({ errors: { time_zone: { $: [MESSAGE] } } });
      const listed = await http().get(LOCATIONS).set(a.auth).expect(200);
      expect(listed.body.result.map((l: { title: string }) => l.title)).not.toContain('Nowhere');
    },
  );

  it('refuses a bad zone on a change too, and keeps the stored one', async () => {
    const code = (
      await http()
        .post(LOCATIONS)
        .set(a.auth)
        .send({ title: 'Kept', time_zone: 'Europe/Paris' })
        .expect(201)
    ).body.code as string;
    const res = await http()
      .patch(`${LOCATIONS}${code}/`)
      .set(a.auth)
      .send({ time_zone: 'Europe/Atlantis' })
      .expect(400);
    expect(res.body).toEqual({ errors: { time_zone: { $: [MESSAGE] } } });
    const listed = await http().get(LOCATIONS).set(a.auth).expect(200);
    expect(listed.body.result.find((l: { code: string }) => l.code === code).time_zone).toBe(
      'Europe/Paris',
    );
  });
});
