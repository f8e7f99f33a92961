import { Database } from '@/platform/db/database';
import { PlanDesignsRepository } from '@/modules/verification/store/plan-designs.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';

/**
 * The SQL of PlanDesignsRepository (docs/api.md, Plan designs), one snapshot per method, each
 * with what the method answered.
 */
describe('plan designs repository', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let accountId: string;
  let otherAccountId: string;

  beforeAll(async () => {
    t = await createTestContext();
    ({ accountId } = await createPractice(t.ctx));
    ({ accountId: otherAccountId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  const design = (groupKey: string, planName: string, insurerCode = VSP) => ({
    insurerCode,
    groupKey,
    planName,
    planGroup: `${planName} group`,
    planGroupId: groupKey,
    items: JSON.stringify([{ benefit_code: 'exam', refresh_date: '2027-01-01' }]),
  });

  it('upserts one design per group, pages and filters them, finds and counts uses', async () => {
    const designs = t.ctx.get(PlanDesignsRepository);
    const database = t.ctx.get(Database);
    await rec('upsert', () => designs.upsert(accountId, design('GRP-1', 'VSP Choice')));
    await designs.upsert(accountId, design('GRP_2', '100% Vision'));
    await designs.upsert(accountId, design('EM-1', 'EyeMed Insight', EYEMED));
    await designs.upsert(otherAccountId, design('GRP-1', 'Not ours'));
    // The same group again: replaced, not added.
    await designs.upsert(accountId, {
      ...design('GRP-1', 'VSP Signature'),
      items: JSON.stringify([{ benefit_code: 'materials', refresh_date: '2028-01-01' }]),
    });

    const all = await rec('page', () =>
      designs.page(accountId, { limit: 2, insurerCode: VSP, q: '_2' }),
    );
    expect(all.result.map((d) => d.planName)).toEqual(['100% Vision']);
    expect(all.result[0].items).toBeUndefined();
    // LIKE's own characters are taken literally.
    expect((await designs.page(accountId, { limit: 10, q: '%' })).result).toHaveLength(1);
    const first = await designs.page(accountId, { limit: 2 });
    const rest = await designs.page(accountId, { limit: 2, cursor: first.next_cursor });
    expect(first.result).toHaveLength(2);
    expect(rest.next_cursor).toBeNull();
    const listed = [...first.result, ...rest.result];
    expect(listed.map((d) => d.planName).sort()).toEqual([
      '100% Vision',
      'EyeMed Insight',
      'VSP Signature',
    ]);

    const id = listed.find((d) => d.planName === 'VSP Signature')!.id;
    const eyeMedId = listed.find((d) => d.planName === 'EyeMed Insight')!.id;
    const found = await rec('find', () => designs.find(accountId, id));
    expect(found).toMatchObject({
      planName: 'VSP Signature',
      items: [{ benefit_code: 'materials', refresh_date: '2028-01-01' }],
      usedCount: 0,
    });
    expect(await designs.find(otherAccountId, id)).toBeNull();
    const many = await rec('findMany', () => designs.findMany(accountId, [id, eyeMedId]));
    expect(many.map((d) => d.planName).sort()).toEqual(['EyeMed Insight', 'VSP Signature']);

    await rec('markUsed', () =>
      database.transaction((tx) => designs.markUsed(accountId, [id], tx)),
    );
    await designs.markUsed(otherAccountId, [id]);
    const used = await designs.find(accountId, id);
    expect(used?.usedCount).toBe(1);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("keeps a group's price list until a verifier gives another, and finds each group's (docs/api.md, The counter)", async () => {
    const designs = t.ctx.get(PlanDesignsRepository);
    const list = { network: 'inn', frame: { allowance: '150.0000' } };
    await designs.upsert(accountId, {
      ...design('MAT-1', 'Priced'),
      materials: JSON.stringify(list),
    });
    // A later answer without a list of its own keeps the group's.
    await designs.upsert(accountId, design('MAT-1', 'Priced again'));
    await designs.upsert(otherAccountId, {
      ...design('MAT-2', 'Theirs'),
      materials: JSON.stringify(list),
    });
    const found = await rec('materialsOf', () =>
      designs.materialsOf(accountId, [
        { insurerCode: VSP, groupKey: 'MAT-1' },
        { insurerCode: EYEMED, groupKey: 'MAT-1' },
        { insurerCode: VSP, groupKey: 'MAT-2' },
      ]),
    );
    expect([...found]).toEqual([[`${VSP}|MAT-1`, list]]);
  });

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);
});
