import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { todayIso } from '@/platform/kernel/time';
import { LENS_OPTIONS } from '@/lib/benefits';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { EXAMPLE_MATERIALS } from '@/modules/quotes/api/quote.examples';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { asBytes, pdfText } from './support/pdf-text';

const URL = '/api/auth/v1/quotes/';
/** Sandbox plans date their benefits from today. */
const DAY = todayIso();

/** Frame, premium progressives of tier 2, an anti-reflective coating and polycarbonate. */
const GLASSES = {
  frame: { retail: '189.00' },
  lenses: { type: 'progressive_premium', tier: 2, retail: '320.00' },
  lens_options: [
    { option: 'anti_reflective_standard', retail: '95.00' },
    { option: 'polycarbonate', retail: '60.00' },
  ],
};

/** What the rule makes of the frame: the allowance, then 20 % off the overage. */
function framePays(retail: string, allowance: string): string {
  const over = toMinor(retail) - toMinor(allowance);
  return fromMinor(over > 0n ? (over * 80n) / 100n : 0n);
}

/**
 * docs/api.md, The counter: quotes on a sandbox person's price list or an inline plan, stored,
 * read back and printed; another account's request and quote are not found.
 */
describe('the counter (docs/api.md, The counter)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let uid: string;
  let adult: any;
  let child: any;
  const http = () => request(t.app.getHttpServer());
  const post = (body: unknown, auth = a.auth) =>
    http()
      .post(URL)
      .set(auth)
      .send(body as object);
  const search = async (last_name: string) => {
    const id = await startSearch(t.app, a.auth, { patient: patient({ last_name }) });
    return { uid: id, body: await waitForResult(t.app, a.auth, id) };
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    const family = await search('Garcia big_family');
    uid = family.uid;
    const persons = family.body.results[0].persons;
    adult = persons.find((p: any) => p.type === 'self');
    child = persons.find((p: any) => p.type === 'child' && Number(p.dob.slice(0, 4)) >= 2010);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("prices frame, tier 2 progressives, anti-reflective and polycarbonate on an adult's list", async () => {
    expect(adult.plan.materials_source).toBe('payer');
    const allowance = adult.plan.materials.frame.allowance as string;
    const res = await post({ request_uid: uid, person_id: adult.id, order: GLASSES });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'lines',
      'retail',
      'plan_covers',
      'patient_pays',
      'not_estimable',
      'materials_source',
      'notes',
    ]);
    const frame = framePays('189.00', allowance);
    expect(res.body.lines.map((l: any) => [l.item, l.code, l.retail, l.patient_pays])).toEqual([
      ['frame', 'V2020', '189.0000', frame],
      ['lenses', null, '320.0000', '110.0000'],
      ['anti_reflective_standard', 'V2750', '95.0000', '41.0000'],
      ['polycarbonate', 'V2784', '60.0000', '31.0000'],
    ]);
    const pays = toMinor(frame) + toMinor('110') + toMinor('41') + toMinor('31');
    expect(res.body).toMatchObject({
      retail: '664.0000',
      patient_pays: fromMinor(pays),
      plan_covers: fromMinor(toMinor('664') - pays),
      not_estimable: [],
      materials_source: 'payer',
    });
    for (const line of res.body.lines)
      expect(fromMinor(toMinor(line.retail) - toMinor(line.patient_pays))).toBe(line.plan_covers);
  });

  it('covers polycarbonate in full for a child, counting the age from the date of birth', async () => {
    const res = await post({
      request_uid: uid,
      person_id: child.id,
      order: GLASSES,
    });
    expect(res.status).toBe(201);
    const poly = res.body.lines.find((l: any) => l.item === 'polycarbonate');
    expect(poly).toMatchObject({ patient_pays: '0.0000', plan_covers: '60.0000' });
    expect(poly.reason).toMatch(/up to age 18 \(the patient is \d+\)/);
  });

  it('covers one side of contacts in lieu of glasses, the other paying retail and saying why', async () => {
    const res = await post({
      request_uid: uid,
      person_id: adult.id,
      order: {
        frame: { retail: '189.00' },
        lenses: { type: 'single_vision', retail: '120.00' },
        contact_lenses: { kind: 'elective', retail: '180.00' },
        fitting: { kind: 'standard', retail: '75.00' },
        in_lieu_keep: 'contact_lenses',
      },
    });
    expect(res.status).toBe(201);
    const byItem = Object.fromEntries(res.body.lines.map((l: any) => [l.item, l]));
    expect(byItem.frame.patient_pays).toBe('189.0000');
    expect(byItem.lenses.patient_pays).toBe('120.0000');
    expect(byItem.frame.plan_covers).toBe('0.0000');
    expect(byItem.frame.reason).toMatch(/contact lenses/);
    expect(byItem.fitting.patient_pays).toBe('0.0000');
    expect(toMinor(byItem.contact_lenses.plan_covers)).toBeGreaterThan(0n);
    expect(res.body.notes.length).toBeGreaterThan(0);
  });

  it('makes every line not estimable on a plan without a price list (no_materials)', async () => {
    const { uid: bare, body } = await search('Garcia no_materials');
    const person = body.results[0].persons[0];
    expect(person.plan.materials).toBeNull();
    const res = await post({ request_uid: bare, person_id: person.id, order: GLASSES });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      lines: [],
      retail: '0.0000',
      plan_covers: '0.0000',
      patient_pays: '0.0000',
      materials_source: null,
    });
    expect(res.body.not_estimable.map((l: any) => [l.item, l.retail])).toEqual([
      ['frame', '189.0000'],
      ['lenses', '320.0000'],
      ['anti_reflective_standard', '95.0000'],
      ['polycarbonate', '60.0000'],
    ]);
    for (const l of res.body.not_estimable) expect(l.reason).toMatch(/no materials price list/);
  });

  it('covers nothing for a frame whose benefit is used, saying until when (mark_used)', async () => {
    const { uid: used, body } = await search('Garcia mark_used');
    const person = body.results[0].persons[0];
    const res = await post({
      request_uid: used,
      person_id: person.id,
      order: { frame: { retail: '189.00' } },
    });
    expect(res.status).toBe(201);
    const [frame] = res.body.lines;
    expect(frame).toMatchObject({ item: 'frame', plan_covers: '0.0000', patient_pays: '189.0000' });
    expect(frame.reason).toMatch(/^frames not available until \d{4}-\d{2}-\d{2}/);
  });

  it('needs patient_age with an inline list that states a max_age', async () => {
    const plan = { insurer_state: 'inn', items: [], materials: EXAMPLE_MATERIALS };
    const res = await post({ plan, order: GLASSES });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: { patient_age: { $: ['This field is required.'] } } });
    const ok = await post({ plan, patient_age: 9, order: GLASSES });
    expect(ok.status).toBe(201);
    expect(ok.body.patient_pays).toBe('186.2000');
  });

  it("answers docs/api.md's inline example as it says", async () => {
    const doc = readFileSync(join(__dirname, '..', 'docs', 'api.md'), 'utf8');
    const start = doc.indexOf('\n## The counter\n');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    const res = await post(JSON.parse(blocks[blocks.length - 1]));
    expect(res.status).toBe(201);
    expect(res.body.lines.map((l: any) => l.patient_pays)).toEqual([
      '31.2000',
      '110.0000',
      '45.0000',
      '0.0000',
    ]);
    expect(res.body).toMatchObject({
      retail: '664.0000',
      patient_pays: '186.2000',
      plan_covers: '477.8000',
    });
  });

  it('refuses bad order fields, naming each', async () => {
    const res = await post({
      request_uid: uid,
      person_id: adult.id,
      order: {
        frame: { retail: '-1' },
        lenses: { type: 'bifocal', tier: 12, retail: '1.00001' },
        lens_options: [{ option: 'gold_leaf', retail: '5' }, 'x'],
        contact_lenses: { kind: 'weekly' },
        fitting: { kind: 'premium', retail: 'free' },
        in_lieu_keep: 'both',
      },
    });
    expect(res.status).toBe(400);
    const order = res.body.errors.order;
    expect(Object.keys(order).sort()).toEqual([
      'contact_lenses',
      'fitting',
      'frame',
      'in_lieu_keep',
      'lens_options',
      'lenses',
    ]);
    expect(order.frame.retail.$).toEqual(['Ensure this value is greater than or equal to 0.']);
    expect(Object.keys(order.lenses).sort()).toEqual(['retail', 'tier', 'type']);
    expect(Object.keys(order.lens_options).sort()).toEqual(['0', '1']);
    expect(order.lens_options['0'].option.$[0]).toBe('"gold_leaf" is not a valid choice.');
    expect(Object.keys(order.contact_lenses).sort()).toEqual(['kind', 'retail']);
    expect(order.contact_lenses.retail.$).toEqual(['This field is required.']);
    expect(order.fitting.retail.$).toHaveLength(1);
    expect(order.in_lieu_keep.$[0]).toBe('"both" is not a valid choice.');
    const none = await post({ request_uid: uid, person_id: adult.id });
    expect(none.body).toEqual({ errors: { order: { $: ['This field is required.'] } } });
  });

  it('refuses ages out of range and a person not in the result, storing nothing', async () => {
    const db = t.app.get(DataSource);
    const stored = async () =>
      Number(
        (await db.query('SELECT count(*) AS n FROM quotes WHERE account_id = $1', [a.accountId]))[0]
          .n,
      );
    const before = await stored();
    for (const age of [-1, 131, 'nine', 9.5]) {
      const res = await post({
        request_uid: uid,
        person_id: adult.id,
        patient_age: age,
        order: GLASSES,
      });
      expect([age, res.status]).toEqual([age, 400]);
      expect(Object.keys(res.body.errors)).toEqual(['patient_age']);
    }
    const stranger = await post({ request_uid: uid, person_id: 987654321, order: GLASSES });
    expect(stranger.status).toBe(400);
    expect(Object.keys(stranger.body.errors)).toEqual(['person_id']);
    const money = await post({
      request_uid: uid,
      person_id: adult.id,
      order: { frame: { retail: '12.345.6' } },
    });
    expect(money.body.errors.order.frame.retail.$).toHaveLength(1);
    expect(await stored()).toBe(before);
  });

  it("answers 404 for another account's request and quote", async () => {
    const res = await post({ request_uid: uid, person_id: adult.id, order: GLASSES }, b.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Eligibility request ${uid} not found.` });
    const mine = await post({ request_uid: uid, person_id: adult.id, order: GLASSES });
    const id = mine.body.id as string;
    for (const path of [`${URL}${id}/`, `${URL}${id}/pdf/`]) {
      const other = await http().get(path).set(b.auth);
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ detail: `Quote ${id} not found.` });
    }
    const bad = await http().get(`${URL}not-a-uuid/`).set(a.auth);
    expect(bad.status).toBe(404);
  });

  it('stores the quote: its GET answers the POST body; its PDF is one page for the patient', async () => {
    const made = await post({
      request_uid: uid,
      person_id: child.id,
      order: GLASSES,
    });
    expect(made.status).toBe(201);
    const read = await http().get(`${URL}${made.body.id}/`).set(a.auth);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(made.body);

    const pdf = await http()
      .get(`${URL}${made.body.id}/pdf/`)
      .set(a.auth)
      .buffer(true)
      .parse(asBytes);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const bytes = pdf.body as Buffer;
    expect(bytes.subarray(0, 4).toString()).toBe('%PDF');
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBe(1);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('an estimate, not a guarantee of payment');
    expect(flat).toContain(child.full_name);
    expect(flat).toContain(DAY);
    for (const words of ['Frame', 'Lenses', 'anti reflective standard', 'polycarbonate'])
      expect(flat).toContain(words);
    expect(flat).toContain(`$${Number(made.body.patient_pays).toFixed(2)}`);
  });

  it('prints a whole order (every lens option, contacts in lieu of glasses) on one page', async () => {
    const made = await post({
      request_uid: uid,
      person_id: adult.id,
      order: {
        frame: { retail: '189.00' },
        lenses: { type: 'progressive_premium', tier: 2, retail: '320.00' },
        lens_options: LENS_OPTIONS.map((option) => ({ option, retail: '40.00' })),
        contact_lenses: { kind: 'elective', retail: '180.00' },
        fitting: { kind: 'premium', retail: '90.00' },
        in_lieu_keep: 'frame',
      },
    });
    expect(made.status).toBe(201);
    expect(made.body.lines.length + made.body.not_estimable.length).toBe(14);
    const pdf = await http()
      .get(`${URL}${made.body.id}/pdf/`)
      .set(a.auth)
      .buffer(true)
      .parse(asBytes);
    const { text, pages } = await pdfText(pdf.body as Buffer);
    expect(pages).toBe(1);
    expect(text.replace(/\s+/g, ' ')).toContain('an estimate, not a guarantee of payment');
  });

  it('lists the quote events in the audit trail', async () => {
    const made = await post({ request_uid: uid, person_id: adult.id, order: GLASSES });
    const id = made.body.id as string;
    await http().get(`${URL}${id}/`).set(a.auth).expect(200);
    await http().get(`${URL}${id}/pdf/`).set(a.auth).buffer(true).parse(asBytes).expect(200);
    const trail = await http()
      .get(`/api/auth/v1/audit-events/?resource_type=quote&resource_id=${id}`)
      .set(a.auth);
    expect(trail.status).toBe(200);
    expect(trail.body.result.map((e: any) => e.action).sort()).toEqual(['create', 'read', 'read']);
  });

  it('refuses a key without the scope estimates use', async () => {
    const { key } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'claims only', ['claims:write']);
    const auth = { Authorization: `Api ${key}` };
    const res = await post({ request_uid: uid, person_id: adult.id, order: GLASSES }, auth);
    expect(res.status).toBe(403);
    const scoped = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'eligibility', ['eligibility:read']);
    const ok = await post(
      { request_uid: uid, person_id: adult.id, order: GLASSES },
      {
        Authorization: `Api ${scoped.key}`,
      },
    );
    expect(ok.status).toBe(201);
  });
});
