import { Database } from '@/platform/db/database';
import { InsurerCallStats } from '@/modules/insurers';
import { TaskRequests, type TaskView, VerificationModule } from '@/modules/verification';
import { PlanDesigns } from '@/modules/verification/domain/plan-designs.service';
import type { VerifiedPlanDto } from '@/modules/verification/api/dto/verification-input.dto';
import { ASKED } from '@/modules/verification/pages/verification-form.fixtures';
import { bootModule, insertAccount, ModuleContext } from '../support/module';

const VSP = 'insurer:vision:vsp';
/** The task a plan answers, as far as designs read it: its insurer and the patient asked for. */
const task = { insurer_code: VSP, insurer_name: 'VSP', patient: ASKED } as TaskView;
const plan = (over: Partial<VerifiedPlanDto> = {}) =>
  ({
    status: 'active',
    plan_name: 'VSP Choice',
    plan_group_id: 'GRP-100',
    plan_begin_date: '2026-01-01',
    plan_is_active: true,
    persons: [
      {
        plan: {
          items: [
            {
              benefit_code: 'exam',
              allowance: [{ flags: ['oon'], value: '45' }],
              allowance_accepted: [{ flags: ['oon'], value: '20' }],
            },
          ],
        },
      },
    ],
    ...over,
  }) as VerifiedPlanDto;

/**
 * The verification module booted alone (test/support/module.ts): plan designs against the real
 * database. Eligibility, which answers a task's request (TaskRequests) and the insurers' call
 * figures, is not booted: those hooks stay open.
 */
describe('verification module, alone', () => {
  let t: ModuleContext;
  let designs: PlanDesigns;
  let accountId: string;

  beforeAll(async () => {
    t = await bootModule(VerificationModule, { openHooks: [TaskRequests, InsurerCallStats] });
    designs = t.ctx.get(PlanDesigns);
    accountId = await insertAccount(t.db);
  });
  afterAll(() => t.close());

  it('boots with the insurers and webhooks modules it imports, and audit under them', () => {
    expect(t.booted).toEqual([
      'AuditModule',
      'InsurersModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it("keeps a completed plan as its group's design without what the member had used", async () => {
    const answer = await designs.answer(accountId, task, [plan()]);
    await t.ctx.get(Database).transaction((tx) => designs.record(tx, accountId, VSP, answer));
    const { result } = await designs.list(accountId, { q: 'grp-100', limit: 10 });
    expect(result).toEqual([expect.objectContaining({ plan_name: 'VSP Choice', used_count: 0 })]);
    const design = await designs.get(accountId, result[0].id);
    expect(design.items).toEqual([
      expect.objectContaining({
        benefit_code: 'exam',
        allowance: [{ flags: ['oon'], value: '45.0000' }],
      }),
    ]);
    expect(JSON.stringify(design.items)).not.toContain('allowance_accepted');
    const other = await insertAccount(t.db);
    await expect(designs.get(other, result[0].id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a plan naming an unknown design, on its field', async () => {
    const refused = designs.answer(accountId, task, [
      plan({ plan_design_id: '7c1e2f4a-93b5-4d0e-8a61-2b9f0c3d5e78' }),
    ]);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      errors: { plans: { 0: { plan_design_id: expect.anything() } } },
    });
  });
});
