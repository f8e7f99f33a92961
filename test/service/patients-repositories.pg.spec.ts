import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { PatientsRepository } from '@/modules/patients/store/patients.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

/** The SQL of PatientsRepository, one snapshot per method, each with what the method answered. */
describe('patients repository', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let patients: PatientsRepository;
  let accountId: string;
  let locationId: string;

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  beforeAll(async () => {
    t = await createTestContext();
    patients = t.ctx.get(PatientsRepository);
    ({ accountId, locationId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('stores, finds and pages patients', async () => {
    const key = { accountId, firstName: 'ada', lastName: 'lovelace', dob: '1985-12-10' };
    const stored = await rec('lockSimilar + findSimilar + insert', () =>
      t.ctx.get(Database).transaction(async (tx) => {
        await patients.lockSimilar(key, tx);
        expect(await patients.findSimilar(key, tx)).toBeNull();
        return patients.insert({ ...key, locationId, code: 'PATSNAP0001', middleName: null }, tx);
      }),
    );
    expect(stored).toMatchObject({ code: 'PATSNAP0001', firstName: 'ada' });
    expect((await rec('findSimilar', () => patients.findSimilar(key)))?.id).toBe(stored.id);
    expect((await rec('findOne', () => patients.findOne(accountId, 'PATSNAP0001')))?.id).toBe(
      stored.id,
    );
    await patients.insert({ ...key, firstName: 'grace', locationId, code: 'PATSNAP0002' });
    const first = await rec('page', () =>
      patients.page(accountId, { locationId, dob: key.dob, words: ['a'] }, { limit: 1 }),
    );
    expect(first.result.map((p) => p.code)).toEqual(['PATSNAP0002']);
    const second = await rec('page after a cursor', () =>
      patients.page(accountId, { words: [] }, { limit: 1, cursor: first.next_cursor }),
    );
    expect(second.result.map((p) => p.code)).toEqual(['PATSNAP0001']);
  });

  it('links patients to eligibility requests', async () => {
    const patient = await patients.findOne(accountId, 'PATSNAP0001');
    const [request]: { id: string }[] = await t.ctx.get(DataSource).query(
      `INSERT INTO eligibility_requests (account_id, uid, kind, location_id, insurer_codes, query, status)
       VALUES ($1, $2, 'search', $3, '{insurer:vision:vsp}', '{}', 'processing') RETURNING id`,
      [accountId, randomUUID(), locationId],
    );
    await rec('link', () => patients.link(accountId, patient!.id, request.id));
    await patients.link(accountId, patient!.id, request.id);
    expect(
      await rec('linkedRequestIds', () => patients.linkedRequestIds(accountId, patient!.id)),
    ).toEqual([request.id]);
  });
});
