import { CheckHooks } from '@/modules/eligibility';
import { ClaimedServices, PatientsModule, PatientsService } from '@/modules/patients';
import type { CreatePatientDto } from '@/modules/patients/api/dto/create-patient.dto';
import { BenefitHistoryService } from '@/modules/patients/domain/benefit-history.service';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

const ROSA = { first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' } as CreatePatientDto;

/**
 * The patients module booted alone (test/support/module.ts): patient records and their staff
 * history against the real database, without their pages (PatientsPagesModule). Claims and
 * appointments, which answer the claimed services and a check's hooks, are not booted.
 */
describe('patients module, alone', () => {
  let t: ModuleContext;
  let patients: PatientsService;
  let accountId: string;

  beforeAll(async () => {
    t = await bootModule(PatientsModule, { openHooks: [ClaimedServices, CheckHooks] });
    patients = t.ctx.get(PatientsService);
    ({ accountId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with accounts and eligibility (and what eligibility imports), without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'EligibilityModule',
      'InsurersModule',
      'PatientsModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it('stores a patient in lower case, reads it back, and refuses a similar one unless forced', async () => {
    const { code } = await patients.create(accountId, ROSA);
    expect(await patients.getByCode(accountId, code)).toMatchObject({
      code,
      first_name: 'rosa',
      last_name: 'diaz',
    });
    await expect(patients.create(accountId, { ...ROSA, first_name: 'ROSA' })).rejects.toMatchObject(
      {
        status: 400,
        errors: { $: [expect.stringContaining(`A similar patient already exists: ${code}.`)] },
      },
    );
    expect((await patients.create(accountId, { ...ROSA, force_similar: true })).code).not.toBe(
      code,
    );
    const other = await createPractice(t.ctx);
    await expect(patients.getByCode(other.accountId, code)).rejects.toMatchObject({ status: 404 });
  });

  it("records a staff entry in the patient's history, newest first", async () => {
    const { code } = await patients.create(accountId, { ...ROSA, dob: '1990-01-01' });
    const history = t.ctx.get(BenefitHistoryService);
    const entry = (benefit_code: 'exam.routine' | 'materials.frames', date: string) =>
      history.add(accountId, code, { insurer_code: 'insurer:vision:vsp', benefit_code, date });
    await entry('exam.routine', '2025-03-01');
    await entry('materials.frames', '2025-08-31');
    expect(
      (await history.list(accountId, code, false)).map((e) => [e.benefit_code, e.date, e.source]),
    ).toEqual([
      ['materials.frames', '2025-08-31', 'staff'],
      ['exam.routine', '2025-03-01', 'staff'],
    ]);
  });
});
