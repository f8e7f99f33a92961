import request from 'supertest';
import { runCli } from './support/cli';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { FakeNpiRegistry } from './support/fake-npi-registry';

/** A location's provider identity (docs/api.md, Real insurers) through the API and the web Locations page. */
describe('locations: provider identity', () => {
  let t: TestApp;
  let a: TestAccount;
  let other: TestAccount;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    other = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('creates a location with an NPI, organisation name and tax id, and answers them', async () => {
    const res = await http().post('/api/auth/v1/locations/').set(a.auth).send({
      title: 'Uptown',
      npi: '1245319599',
      organization_name: 'Uptown Optometry PLLC',
      tax_id: '741234567',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Uptown',
      npi: '1245319599',
      organization_name: 'Uptown Optometry PLLC',
      tax_id: '741234567',
    });
    const list = await http().get('/api/auth/v1/locations/').set(a.auth).expect(200);
    const main = list.body.result.find((l: { is_default: boolean }) => l.is_default);
    expect(main).toMatchObject({ npi: null, organization_name: null, tax_id: null });
  });

  it('refuses an NPI with a wrong check digit, a short one and a bad tax id, all at once', async () => {
    const res = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Bad', npi: '1234567890', tax_id: '74-1234567' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        npi: { $: ['This NPI has an invalid check digit.'] },
        tax_id: {
          $: ['Ensure this field has no more than 9 characters.', 'A tax id is 9 digits.'],
        },
      },
    });
    const short = await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send({ npi: '12345' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ errors: { npi: { $: ['An NPI is 10 digits.'] } } });
  });

  it('PATCH changes the fields given, null clears them, a blank title is refused', async () => {
    const path = `/api/auth/v1/locations/${a.locationCode}/`;
    const set = await http()
      .patch(path)
      .set(a.auth)
      .send({ npi: '1234567893', organization_name: 'Bright Eyes' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      code: a.locationCode,
      title: 'Main office',
      npi: '1234567893',
      organization_name: 'Bright Eyes',
      tax_id: null,
    });
    const cleared = await http().patch(path).set(a.auth).send({ organization_name: null });
    expect(cleared.body).toMatchObject({ npi: '1234567893', organization_name: null });
    const blank = await http().patch(path).set(a.auth).send({ title: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ errors: { title: { $: ['This field may not be blank.'] } } });
  });

  it('PATCH sets the street address (claim forms print it), refuses a bad one by field, null clears it', async () => {
    const path = `/api/auth/v1/locations/${a.locationCode}/`;
    const address = {
      line1: '901 E 6th St',
      line2: 'Suite 200',
      city: 'Austin',
      state: 'tx',
      zipcode: '78702-4410',
    };
    const set = await http().patch(path).set(a.auth).send({ address });
    expect(set.status).toBe(200);
    expect(set.body.address).toEqual({ ...address, state: 'TX' });
    const bad = await http()
      .patch(path)
      .set(a.auth)
      .send({ address: { line1: '901 E 6th St', city: 'Austin', state: 'Texas', zipcode: '787' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.address.state.$).toContain('A state is its two-letter code (TX).');
    expect(bad.body.errors.address.zipcode.$).toHaveLength(1);
    const cleared = await http().patch(path).set(a.auth).send({ address: null });
    expect(cleared.body.address).toBeNull();
  });

  it('refuses a PO box and a ZIP without its +4 as field errors (docs/api.md, Claims)', async () => {
    const res = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({
        title: 'Mailbox',
        address: {
          line1: 'P.O. Box 1234',
          line2: 'PO BOX 9',
          city: 'Austin',
          state: 'TX',
          zipcode: '78701',
        },
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        address: {
          line1: { $: ['The billing address must be a street address, not a PO box.'] },
          line2: { $: ['The billing address must be a street address, not a PO box.'] },
          zipcode: {
            $: [
              "A location's ZIP code carries the ZIP+4 (NNNNN-NNNN): the 837P's billing provider needs all nine digits.",
            ],
          },
        },
      },
    });
    // A street named like a box is a street.
    const street = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({
        title: 'Boxwood',
        address: { line1: '12 Boxwood Ln', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
      });
    expect(street.status).toBe(201);
    expect(street.body.address.line1).toBe('12 Boxwood Ln');
  });

  it('takes a taxonomy (default 152W00000X) and a rendering provider; refuses the organisation NPI as one', async () => {
    const created = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({
        title: 'Eastside',
        npi: '1234567893',
        rendering_provider: { npi: '1245319599', first_name: 'Ana', last_name: 'Ruiz' },
      });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      taxonomy_code: '152W00000X',
      rendering_provider: {
        npi: '1245319599',
        first_name: 'Ana',
        last_name: 'Ruiz',
        taxonomy_code: '152W00000X',
      },
    });
    const path = `/api/auth/v1/locations/${created.body.code}/`;
    const changed = await http().patch(path).set(a.auth).send({ taxonomy_code: '152wc0802x' });
    expect(changed.body).toMatchObject({
      taxonomy_code: '152WC0802X',
      rendering_provider: { taxonomy_code: '152WC0802X' },
    });
    const organisation = await http()
      .patch(path)
      .set(a.auth)
      .send({ rendering_provider: { npi: '1234567893', first_name: 'Clear', last_name: 'Sight' } });
    expect(organisation.status).toBe(400);
    expect(organisation.body).toEqual({
      errors: {
        rendering_provider: {
          npi: {
            $: [
              "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.",
            ],
          },
        },
      },
    });
    const bad = await http()
      .patch(path)
      .set(a.auth)
      .send({ taxonomy_code: '152W', rendering_provider: { npi: '1245319590', first_name: 'A' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      taxonomy_code: {
        $: ['A taxonomy code is 10 characters ending in X (152W00000X, optometrist).'],
      },
      rendering_provider: {
        npi: { $: ['This NPI has an invalid check digit.'] },
        last_name: { $: ['This field is required.'] },
      },
    });
    const cleared = await http().patch(path).set(a.auth).send({ rendering_provider: null });
    expect(cleared.body.rendering_provider).toBeNull();
  });

  it('the CLI sets the identity an 837P needs with the API checks (locations:update)', async () => {
    const refused = await runCli([
      'locations:update',
      '--code',
      a.locationCode,
      '--json',
      JSON.stringify({
        address: { line1: 'PO Box 5', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
      }),
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr.trim())).toEqual({
      error: JSON.stringify({
        address: { line1: { $: ['The billing address must be a street address, not a PO box.'] } },
      }),
    });
    const done = await runCli([
      'locations:update',
      '--code',
      a.locationCode,
      '--json',
      JSON.stringify({
        tax_id: '741234567',
        rendering_provider: { npi: '1245319599', first_name: 'Ana', last_name: 'Ruiz' },
      }),
    ]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      code: a.locationCode,
      tax_id: '741234567',
      taxonomy_code: '152W00000X',
      rendering_provider: { npi: '1245319599', last_name: 'Ruiz' },
    });
    const read = await http().get('/api/auth/v1/locations/').set(a.auth);
    expect(
      read.body.result.find((l: { code: string }) => l.code === a.locationCode).rendering_provider,
    ).toMatchObject({ npi: '1245319599' });
    await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send({ tax_id: null, rendering_provider: null })
      .expect(200);
  }, 60_000);

  it("another account's location is answered as a missing one", async () => {
    const res = await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(other.auth)
      .send({ npi: '1003000126' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Location ${a.locationCode} not found.` });
    const mine = await http().get('/api/auth/v1/locations/').set(a.auth);
    const main = mine.body.result.find((l: { code: string }) => l.code === a.locationCode);
    expect(main.npi).not.toBe('1003000126');
  });

  it('the web Locations page edits the identity with the API messages, and clears a field', async () => {
    const web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    await web
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: a.email, password: a.password })
      .expect(302);
    const post = async (fields: Record<string, string>) => {
      const page = await web.get('/app/locations/').expect(200);
      return web
        .post(`/app/locations/${a.locationCode}`)
        .type('form')
        .send({ _csrf: csrfOf(page.text), title: 'Main office', ...fields });
    };
    const refused = await post({ npi: '1234567890', organization_name: '', tax_id: '' });
    expect(refused.status).toBe(400);
    expect(fieldErrors(refused.text)).toEqual(['This NPI has an invalid check digit.']);
    expect(refused.text).toContain('value="1234567890"');

    const saved = await post({ npi: '1003000126', organization_name: 'Main Eyes', tax_id: '' });
    expect(saved.status).toBe(302);
    const list = await http().get('/api/auth/v1/locations/').set(a.auth);
    const main = list.body.result.find((l: { code: string }) => l.code === a.locationCode);
    expect(main).toMatchObject({ npi: '1003000126', organization_name: 'Main Eyes', tax_id: null });

    // docs/api.md, Locations: the time zone the Schedule shows visits in, refused by its field.
    const zone = await post({ npi: '', organization_name: '', tax_id: '', time_zone: 'Mars/Base' });
    expect(zone.status).toBe(400);
    expect(fieldErrors(zone.text)).toEqual(['Enter an IANA time zone name, e.g. America/Chicago.']);
    await post({ time_zone: 'America/Chicago' }).then((r) => expect(r.status).toBe(302));
    const zoned = await http().get('/api/auth/v1/locations/').set(a.auth);
    expect(
      zoned.body.result.find((l: { code: string }) => l.code === a.locationCode).time_zone,
    ).toBe('America/Chicago');
    expect((await web.get('/app/locations/')).text).toMatch(
      /name="time_zone"[^>]*value="America\/Chicago"/,
    );

    await post({ npi: '', organization_name: '', tax_id: '' }).then((r) =>
      expect(r.status).toBe(302),
    );
    const after = await http().get('/api/auth/v1/locations/').set(a.auth);
    expect(
      after.body.result.find((l: { code: string }) => l.code === a.locationCode),
    ).toMatchObject({ npi: null, organization_name: null });
    expect((await web.get('/app/locations/')).text).toContain(
      'No NPI: real insurers cannot be asked',
    );

    // docs/api.md, Claims on the page: the ZIP+4, a PO box and the rendering provider, by field.
    const box = await post({
      npi: '1234567893',
      address_line1: 'PO Box 77',
      address_city: 'Austin',
      address_state: 'TX',
      address_zipcode: '78701',
      rendering_npi: '1234567893',
      rendering_first_name: 'Ana',
      rendering_last_name: 'Ruiz',
    });
    expect(box.status).toBe(400);
    expect(fieldErrors(box.text)).toEqual([
      'The billing address must be a street address, not a PO box.',
      "A location's ZIP code carries the ZIP+4 (NNNNN-NNNN): the 837P's billing provider needs all nine digits.",
    ]);
    const row = async () => {
      const html = (await web.get('/app/locations/')).text;
      const start = html.indexOf(`<tr data-location="${a.locationCode}">`);
      return html.slice(start, html.indexOf('</tr>', start));
    };
    expect(await row()).toContain('Claims from this location go on paper until');
    const organisation = await post({
      npi: '1234567893',
      tax_id: '741234567',
      address_line1: '500 W 2nd St',
      address_city: 'Austin',
      address_state: 'TX',
      address_zipcode: '78701-1234',
      rendering_npi: '1234567893',
      rendering_first_name: 'Ana',
      rendering_last_name: 'Ruiz',
    });
    expect(organisation.status).toBe(400);
    expect(fieldErrors(organisation.text)).toEqual([
      "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.",
    ]);
    const ready = await post({
      npi: '1234567893',
      tax_id: '741234567',
      address_line1: '500 W 2nd St',
      address_city: 'Austin',
      address_state: 'TX',
      address_zipcode: '78701-1234',
      taxonomy_code: '152W00000X',
      rendering_npi: '1245319599',
      rendering_first_name: 'Ana',
      rendering_last_name: 'Ruiz',
    });
    expect(ready.status).toBe(302);
    const saved2 = await row();
    expect(saved2).not.toContain('Claims from this location go on paper until');
    expect(saved2).toContain('value="1245319599"');
  });
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}

function fieldErrors(html: string): string[] {
  return [...html.matchAll(/<div class="field-error">([^<]*)<\/div>/g)].map((m) =>
    m[1].replaceAll('&#39;', "'").replaceAll('&amp;', '&'),
  );
}

describe('locations: the rendering provider is an individual, as the NPI registry says (docs/api.md, Claims)', () => {
  const registry = new FakeNpiRegistry()
    .register('1245319599', 'NPI-1')
    .register('1234567893', 'NPI-2');
  let t: TestApp;
  let a: TestAccount;
  const provider = (npi: string) => ({ npi, first_name: 'Ana', last_name: 'Ruiz' });
  const refused = {
    errors: {
      rendering_provider: {
        npi: {
          $: [
            'The NPI registry lists this NPI as an organisation (type 2): the rendering provider is an individual (a type-1 NPI).',
          ],
        },
      },
    },
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { NPI_REGISTRY_URL: await registry.start() } });
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await registry.stop();
  });

  it('refuses a type-2 NPI as rendering provider with a field error, on create and on change, and keeps a type-1 one', async () => {
    const http = () => request(t.app.getHttpServer());
    const organisation = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Northside', rendering_provider: provider('1234567893') });
    expect({ status: organisation.status, body: organisation.body }).toEqual({
      status: 400,
      body: refused,
    });
    const person = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Northside', rendering_provider: provider('1245319599') });
    expect(person.status).toBe(201);
    expect(person.body.rendering_provider.npi).toBe('1245319599');
    const changed = await http()
      .patch(`/api/auth/v1/locations/${person.body.code}/`)
      .set(a.auth)
      .send({ rendering_provider: provider('1234567893') });
    expect({ status: changed.status, body: changed.body }).toEqual({ status: 400, body: refused });
    const list = await http().get('/api/auth/v1/locations/').set(a.auth);
    const kept = list.body.result.find((l: { code: string }) => l.code === person.body.code);
    expect(kept.rendering_provider.npi).toBe('1245319599');
    expect(registry.queries).toContain('?version=2.1&number=1234567893');
  });

  it("refuses a claim whose own rendering provider is a type-2 NPI, with the field error and the claim's other errors", async () => {
    const http = () => request(t.app.getHttpServer());
    const member = {
      first_name: 'Maria',
      last_name: 'Gonzalez',
      dob: '1986-04-12',
      type: 'self',
      sex: 'female',
      member_id: 'VSP104882211',
    };
    const claim = (npi: string, diagnosis_codes?: string[]) => ({
      patient: member,
      primary_member: { ...member, insurer_code: 'insurer:vision:vsp' },
      services: [
        { codes: ['92014'], date: '2026-01-14', quantity: 1, cost: '145.00', diagnosis_codes },
      ],
      paid_amount: '145.00',
      rendering_provider: provider(npi),
    });
    const organisation = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send(claim('1234567893'));
    // Reported together with the insurer's own rule (VSP wants a diagnosis).
    expect({ status: organisation.status, body: organisation.body }).toEqual({
      status: 400,
      body: {
        errors: {
          ...refused.errors,
          services: {
            $: ['At least one service needs a diagnosis code for VSP Vision Care claims.'],
          },
        },
      },
    });
    const person = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send(claim('1245319599', ['H52.13']));
    expect(person.status).toBe(201);
    expect(person.body.rendering_provider.npi).toBe('1245319599');
  });

  it('accepts an NPI the registry does not know, or when the registry cannot be asked', async () => {
    const http = () => request(t.app.getHttpServer());
    // A valid check digit the registry has no record of.
    const unknown = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'New practice', rendering_provider: provider('1003000126') });
    expect(unknown.status).toBe(201);
    registry.down = true;
    try {
      const outage = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Outage', rendering_provider: provider('1417947185') });
      expect(outage.status).toBe(201);
    } finally {
      registry.down = false;
    }
  });
});
