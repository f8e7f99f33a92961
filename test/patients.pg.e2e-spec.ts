import request from 'supertest';
import { DataSource } from 'typeorm';
import { PatientsRepository } from '@/modules/patients/store/patients.repository';
import { compile } from '@/platform/db/sql';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const CODE = /^PAT[0-9A-HJKMNP-TV-Z]{8}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

interface PatientBody {
  code: string;
  first_name: string;
  last_name: string;
  dob: string;
  created_at: string;
}

describe('patients (docs/api.md, Patients)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const create = (account: TestAccount, body: Record<string, unknown>) =>
    http().post('/api/auth/v1/patients/').set(account.auth).send(body);

  describe('creation', () => {
    it('answers 200 with lower-cased names, nulls for unset fields, the default location and a PAT code', async () => {
      const res = await create(a, {
        first_name: 'Maria',
        last_name: 'GONZALEZ',
        dob: '1986-04-12',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: expect.stringMatching(CODE),
        first_name: 'maria',
        middle_name: null,
        last_name: 'gonzalez',
        dob: '1986-04-12',
        sex: null,
        ssn_last_four: null,
        email: null,
        phone: null,
        address: null,
        account_number: null,
        location: { status: 'enabled', title: 'Main office', code: a.locationCode },
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Object.keys(res.body)).toHaveLength(13);
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT first_name, last_name FROM patients WHERE code = $1', [res.body.code]);
      expect(row).toEqual({ first_name: 'maria', last_name: 'gonzalez' });
    });

    it('stores every optional field, a partial address with nulls, and the named location', async () => {
      const loc = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Uptown Vision' });
      const res = await create(a, {
        first_name: '  Lucas ',
        middle_name: 'Andrés',
        last_name: 'Gonzalez',
        dob: '2015-09-03',
        sex: 'male',
        ssn_last_four: '0042',
        email: 'lucas.parent@example.com',
        phone: '+1 (512) 555-0199',
        address: { line1: '1208 Congress Ave', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
        account_number: 'CHART-20932',
        location_code: loc.body.code,
        unknown_field: 'ignored',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        first_name: 'lucas',
        middle_name: 'andrés',
        last_name: 'gonzalez',
        sex: 'male',
        ssn_last_four: '0042',
        email: 'lucas.parent@example.com',
        phone: '+1 (512) 555-0199',
        address: {
          line1: '1208 Congress Ave',
          line2: null,
          recipient: null,
          city: 'Austin',
          zipcode: '78701-1234',
          state: 'TX',
        },
        account_number: 'CHART-20932',
        location: { status: 'enabled', title: 'Uptown Vision', code: loc.body.code },
      });
      expect(res.body).not.toHaveProperty('unknown_field');
      const again = await http().get(`/api/auth/v1/patients/${res.body.code}/`).set(a.auth);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
    });

    it('treats an empty location_code as the default location', async () => {
      const res = await create(a, {
        first_name: 'Empty',
        last_name: 'Location',
        dob: '1970-01-01',
        location_code: '',
      });
      expect(res.status).toBe(200);
      expect(res.body.location.code).toBe(a.locationCode);
    });

    it('reports every field error at once, nested under address', async () => {
      const res = await create(a, {
        first_name: '',
        dob: '1990-02-30',
        sex: 'M',
        ssn_last_four: '12345',
        email: 'not-an-email',
        address: { zipcode: '7870' },
        force_similar: 'yes',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          first_name: { $: ['This field may not be blank.'] },
          last_name: { $: ['This field is required.'] },
          dob: {
            $: [
              'Date has wrong format. Use YYYY-MM-DD.',
              '1990-02-30 is not a date: that month has 28 days.',
            ],
          },
          sex: {
            $: ['"M" is not a valid choice.', 'Allowed values: female, male, other, unknown.'],
          },
          ssn_last_four: { $: ['Enter exactly 4 digits.'] },
          email: { $: ['Enter a valid email address.'] },
          address: { zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] } },
          force_similar: { $: ['Must be a valid boolean.'] },
        },
      });
    });

    it('refuses a future date of birth and an unknown location code', async () => {
      const res = await create(a, {
        first_name: 'Future',
        last_name: 'Child',
        dob: '2999-01-01',
      });
      expect(res.body.errors.dob).toEqual({ $: ['Date may not be in the future.'] });
      const loc = await create(a, {
        first_name: 'No',
        last_name: 'Where',
        dob: '1990-01-01',
        location_code: 'LOCNOPE0000',
      });
      expect(loc.status).toBe(400);
      expect(loc.body).toEqual({
        errors: { location_code: { $: ['Location LOCNOPE0000 does not exist.'] } },
      });
      const other = await create(a, {
        first_name: 'No',
        last_name: 'Where',
        dob: '1990-01-01',
        location_code: b.locationCode,
      });
      expect(other.status).toBe(400);
      expect(other.body.errors.location_code).toBeDefined();
    });
  });

  describe('similar patients', () => {
    it('refuses a patient with the same names (any case) and dob, naming the existing one', async () => {
      const first = await create(a, { first_name: 'Olivia', last_name: 'Chen', dob: '1979-12-01' });
      expect(first.status).toBe(200);
      const dup = await create(a, { first_name: 'OLIVIA', last_name: ' chen', dob: '1979-12-01' });
      expect(dup.status).toBe(400);
      expect(Object.keys(dup.body.errors)).toEqual(['$']);
      expect(dup.body.errors.$).toHaveLength(1);
      expect(dup.body.errors.$[0]).toContain(first.body.code);
      expect(dup.body.errors.$[0]).toContain('force_similar');
    });

    it('saves the similar patient with force_similar, under a new code', async () => {
      const first = await create(a, { first_name: 'Noah', last_name: 'Kim', dob: '2001-06-30' });
      const forced = await create(a, {
        first_name: 'Noah',
        last_name: 'Kim',
        dob: '2001-06-30',
        force_similar: true,
      });
      expect(forced.status).toBe(200);
      expect(forced.body.code).not.toBe(first.body.code);
      const notForced = await create(a, {
        first_name: 'Noah',
        last_name: 'Kim',
        dob: '2001-06-30',
        force_similar: false,
      });
      expect(notForced.status).toBe(400);
    });

    it('does not count a different dob or another account as similar', async () => {
      await create(a, { first_name: 'Ava', last_name: 'Patel', dob: '1990-05-05' });
      expect(
        (await create(a, { first_name: 'Ava', last_name: 'Patel', dob: '1990-05-06' })).status,
      ).toBe(200);
      expect(
        (await create(b, { first_name: 'Ava', last_name: 'Patel', dob: '1990-05-05' })).status,
      ).toBe(200);
    });

    it('lets exactly one of several concurrent identical creations through', async () => {
      const body = { first_name: 'Race', last_name: 'Condition', dob: '1995-03-03' };
      const results = await Promise.all(Array.from({ length: 6 }, () => create(a, body)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    });
  });

  describe('get by code', () => {
    it('answers an unknown code with 404 naming it', async () => {
      const res = await http().get('/api/auth/v1/patients/PAT00000000/').set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Patient PAT00000000 not found.' });
    });

    it("answers another account's patient exactly like a missing one", async () => {
      const own = await create(b, { first_name: 'Secret', last_name: 'Person', dob: '1980-01-01' });
      const res = await http().get(`/api/auth/v1/patients/${own.body.code}/`).set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Patient ${own.body.code} not found.` });
      const mine = await http().get(`/api/auth/v1/patients/${own.body.code}`).set(b.auth);
      expect(mine.status).toBe(200);
    });
  });

  describe('list', () => {
    let c: TestAccount;
    let expectedOrder: string[];

    beforeAll(async () => {
      c = await createAccount(t.app);
      // 60 through the API (some concurrently, so timestamps may tie) and 60 inserted in one
      // statement, which gives them all the very same created_at: the id must break the ties.
      for (let batch = 0; batch < 6; batch++) {
        const res = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            create(c, {
              first_name: `Api${batch}${i}`,
              last_name: 'Pager',
              dob: '1990-01-01',
              force_similar: true,
            }),
          ),
        );
        expect(res.every((r) => r.status === 200)).toBe(true);
      }
      const ds = t.app.get(DataSource);
      await ds.query(
        `INSERT INTO patients (account_id, location_id, code, first_name, last_name, dob)
         SELECT $1, l.id, 'PATBULK' || lpad(g::text, 4, '0'), 'bulk' || g, 'pager', '1991-01-01'
         FROM generate_series(1, 60) g, locations l WHERE l.account_id = $1 AND l.is_default`,
        [c.accountId],
      );
      const rows: { code: string }[] = await ds.query(
        'SELECT code FROM patients WHERE account_id = $1 ORDER BY created_at DESC, id DESC',
        [c.accountId],
      );
      expectedOrder = rows.map((r) => r.code);
      expect(expectedOrder).toHaveLength(120);
    });

    const list = (account: TestAccount, query: Record<string, string | number>) =>
      http().get('/api/auth/v1/patients/').query(query).set(account.auth);

    it('pages through 120 patients with limit=50: each exactly once, newest first', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page++) {
        const res = await list(c, cursor ? { limit: 50, cursor } : { limit: 50 });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['next_cursor', 'result']);
        sizes.push(res.body.result.length);
        seen.push(...res.body.result.map((p: PatientBody) => p.code));
        cursor = res.body.next_cursor;
        if (cursor === null) break;
        expect(typeof cursor).toBe('string');
      }
      expect(sizes).toEqual([50, 50, 20]);
      expect(cursor).toBeNull();
      expect(new Set(seen).size).toBe(120);
      expect(seen).toEqual(expectedOrder);
    });

    it('defaults to 50 per page, allows 200, and refuses a bad limit or cursor', async () => {
      const first = await list(c, {});
      expect(first.body.result).toHaveLength(50);
      expect(first.body.next_cursor).not.toBeNull();
      const all = await list(c, { limit: 200 });
      expect(all.body.result).toHaveLength(120);
      expect(all.body.next_cursor).toBeNull();
      const tooMany = await list(c, { limit: 201 });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual({
        errors: { limit: { $: ['Ensure this value is less than or equal to 200.'] } },
      });
      expect((await list(c, { limit: 0 })).status).toBe(400);
      expect((await list(c, { limit: 'ten' })).body.errors.limit).toEqual({
        $: ['A valid integer is required.'],
      });
      const bad = await list(c, { cursor: 'bm90IGEgY3Vyc29y' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ errors: { cursor: { $: ['Invalid cursor.'] } } });
    });

    it('still takes a cursor of the earlier millisecond form (handed out before an upgrade)', async () => {
      const [row]: { id: string; created_at: Date }[] = await t.app
        .get(DataSource)
        .query('SELECT id, created_at FROM patients WHERE code = $1', [expectedOrder[49]]);
      const cursor = Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');
      const res = await list(c, { limit: 50, cursor });
      expect(res.status).toBe(200);
      expect(res.body.result.map((p: PatientBody) => p.code)).toEqual(expectedOrder.slice(50, 100));
    });

    it("never lists another account's patients, even with its cursor", async () => {
      const page = await list(c, { limit: 5 });
      const other = await list(a, { limit: 200, cursor: page.body.next_cursor });
      expect(other.status).toBe(200);
      const codes = other.body.result.map((p: PatientBody) => p.code);
      expect(codes.some((code: string) => expectedOrder.includes(code))).toBe(false);
    });

    describe('filters', () => {
      let d: TestAccount;
      let uptown: string;

      beforeAll(async () => {
        d = await createAccount(t.app);
        uptown = (
          await http().post('/api/auth/v1/locations/').set(d.auth).send({ title: 'Uptown' })
        ).body.code;
        const people = [
          ['Maria', 'Gonzalez', '1986-04-12', 'A-1', ''],
          ['Mario', 'Rossi', '1986-04-12', 'A-2', uptown],
          ['Lucas', 'Gonzalez', '2015-09-03', 'A-3', uptown],
          ['Anna', 'Marino', '1975-07-07', 'A-1', ''],
          ['Percent', 'Under_score', '1975-07-07', null, ''],
        ];
        for (const [first, last, dob, accountNumber, location] of people) {
          const res = await create(d, {
            first_name: first,
            last_name: last,
            dob,
            account_number: accountNumber,
            location_code: location,
          });
          expect(res.status).toBe(200);
        }
      });

      const names = async (query: Record<string, string | number>) => {
        const res = await list(d, query);
        expect(res.status).toBe(200);
        return res.body.result.map((p: PatientBody) => `${p.first_name} ${p.last_name}`);
      };

      it('searches names case-insensitively; every word must match', async () => {
        expect(await names({ search: 'GONZ' })).toEqual(['lucas gonzalez', 'maria gonzalez']);
        expect(await names({ search: 'mari' })).toEqual([
          'anna marino',
          'mario rossi',
          'maria gonzalez',
        ]);
        expect(await names({ search: 'maria gonzalez' })).toEqual(['maria gonzalez']);
        expect(await names({ search: 'gonzalez  lucas ' })).toEqual(['lucas gonzalez']);
        // LIKE wildcards in the search are taken literally.
        expect(await names({ search: '%' })).toEqual([]);
        expect(await names({ search: 'o_s' })).toEqual([]); // would match "rossi" as a wildcard
        expect(await names({ search: 'under_' })).toEqual(['percent under_score']);
      });

      it('filters by dob, location_code and account_number, and combines filters', async () => {
        expect(await names({ dob: '1986-04-12' })).toEqual(['mario rossi', 'maria gonzalez']);
        expect(await names({ location_code: uptown })).toEqual(['lucas gonzalez', 'mario rossi']);
        expect(await names({ location_code: d.locationCode })).toEqual([
          'percent under_score',
          'anna marino',
          'maria gonzalez',
        ]);
        expect(await names({ account_number: 'A-1' })).toEqual(['anna marino', 'maria gonzalez']);
        expect(await names({ dob: '1986-04-12', location_code: uptown })).toEqual(['mario rossi']);
        expect(await names({ search: 'gonzalez', account_number: 'A-3' })).toEqual([
          'lucas gonzalez',
        ]);
      });

      it('paginates a filtered list', async () => {
        const first = await list(d, { search: 'mar', limit: 2 });
        expect(first.body.result).toHaveLength(2);
        const second = await list(d, { search: 'mar', limit: 2, cursor: first.body.next_cursor });
        expect(second.body.result).toHaveLength(1);
        expect(second.body.next_cursor).toBeNull();
      });

      it('refuses a malformed dob filter and an unknown location filter', async () => {
        expect((await list(d, { dob: '12/04/1986' })).body).toEqual({
          errors: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } },
        });
        expect((await list(d, { location_code: 'LOCNOPE0000' })).body).toEqual({
          errors: { location_code: { $: ['Location LOCNOPE0000 does not exist.'] } },
        });
      });
    });

    it('keeps deep pages as cheap as the first: an index range scan, no sort, no offset', async () => {
      const repository = t.app.get(PatientsRepository);
      const page1 = await list(c, { limit: 50 });
      const explain = async (query: Record<string, unknown>) => {
        const request = { limit: 50, cursor: query.cursor as string | undefined };
        const { text: sql, values: params } = compile(
          repository.pageQuery(c.accountId, { words: [] }, request),
        );
        const runner = t.app.get(DataSource).createQueryRunner();
        await runner.connect();
        await runner.startTransaction();
        try {
          // 120 rows are cheaper to scan whole; hide that so the plan shows what the index allows.
          await runner.query('SET LOCAL enable_seqscan = off');
          const rows: { 'QUERY PLAN': string }[] = await runner.query(`EXPLAIN ${sql}`, params);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      };
      for (const plan of [
        await explain({ limit: 50 }),
        await explain({ limit: 50, cursor: page1.body.next_cursor }),
      ]) {
        expect(plan).toContain('Index Scan using patients_account_created_idx');
        expect(plan).not.toMatch(/Sort|Offset/);
      }
    });
  });
});
