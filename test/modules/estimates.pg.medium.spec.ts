import { BenefitHistory, CheckHooks } from '@/modules/eligibility';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { EstimatesModule } from '@/modules/estimates';
import type { CreateEstimateDto } from '@/modules/estimates/api/dto/create-estimate.dto';
import { EstimatesService } from '@/modules/estimates/domain/estimates.service';
import { createPractice } from '../support/factories';
import { DEMO, patient } from '../support/eligibility';
import { bootModule, ModuleContext } from '../support/module';

/** Exam and frames out of network. */
const PLAN = {
  insurer_state: 'oon',
  items: [
    {
      benefit_code: 'exam',
      refresh_date: '2027-01-01',
      allowance: [{ flags: ['oon'], value: '45' }],
    },
    {
      benefit_code: 'materials.frames',
      refresh_date: '2027-01-01',
      allowance: [{ flags: ['oon'], value: '150' }],
    },
  ],
};
const RECEIPT = [
  { codes: ['92014'], cost: '120.00' },
  { codes: ['V2020'], cost: '180.00' },
];

/**
 * The estimates module booted alone (test/support/module.ts), without its page
 * (EstimatesPagesModule): estimates on a plan sent inline or on a stored request's person.
 */
describe('estimates module, alone', () => {
  let t: ModuleContext;
  let estimates: EstimatesService;
  let accountId: string;
  const estimate = (dto: Partial<CreateEstimateDto>) =>
    estimates.estimate(accountId, {
      services: RECEIPT,
      date_of_service: '2026-11-21',
      ...dto,
    });

  beforeAll(async () => {
    t = await bootModule(EstimatesModule, { openHooks: [CheckHooks, BenefitHistory] });
    estimates = t.ctx.get(EstimatesService);
    ({ accountId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with eligibility (and what it imports), without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'EligibilityModule',
      'EstimatesModule',
      'InsurersModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it('estimates a receipt on an inline plan, line by line', async () => {
    expect(await estimate({ plan: PLAN as CreateEstimateDto['plan'] })).toMatchObject({
      total_cost: '300.0000',
      estimated_reimbursement: '195.0000',
      patient_responsibility: '105.0000',
      lines: [
        { benefit_code: 'exam', capped: '45.0000' },
        { benefit_code: 'materials.frames', capped: '150.0000' },
      ],
    });
  });

  it('refuses a stored request still processing, an unknown one, and a request without a source', async () => {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code: DEMO, patient: patient() });
    await expect(estimate({ request_uid: uid, person_id: 1 })).rejects.toMatchObject({
      status: 400,
      errors: { request_uid: { $: [`Eligibility request ${uid} is not complete.`] } },
    });
    await expect(estimate({ request_uid: 'nobody', person_id: 1 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(estimate({})).rejects.toMatchObject({
      status: 400,
      errors: { $: ['Give either request_uid and person_id, or plan.'] },
    });
  });
});
