import {
  BenefitHistory,
  CheckHooks,
  EligibilityModule,
  EligibilityQueryService,
} from '@/modules/eligibility';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import type { CreateEligibilityDto } from '@/modules/eligibility/api/dto/create-eligibility.dto';
import { createPractice } from '../support/factories';
import { DEMO, patient } from '../support/eligibility';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The eligibility module booted alone (test/support/module.ts): a search's intake against the
 * real database, without its pages (EligibilityPagesModule). Appointments and patients, which
 * answer a check's hooks and the practice's history, are not booted: those hooks stay open.
 */
describe('eligibility module, alone', () => {
  let t: ModuleContext;
  let intake: EligibilityService;
  let accountId: string;
  const search = (over: Partial<CreateEligibilityDto> = {}) =>
    intake.create(accountId, {
      insurer_code: DEMO,
      patient: patient(),
      ...over,
    });

  beforeAll(async () => {
    t = await bootModule(EligibilityModule, { openHooks: [CheckHooks, BenefitHistory] });
    intake = t.ctx.get(EligibilityService);
    ({ accountId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with the modules it imports, without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'EligibilityModule',
      'InsurersModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it('stores a search as processing under its uid and answers its processing body', async () => {
    const uid = await search({ request_uid: 'visit-0001' });
    expect(uid).toBe('visit-0001');
    const queries = t.ctx.get(EligibilityQueryService);
    expect(await queries.findRequest(accountId, uid)).toMatchObject({
      status: 'processing',
      insurerCodes: [DEMO],
    });
    expect(JSON.parse(await queries.getBody(accountId, uid, 'v2'))).toMatchObject({
      request_uid: uid,
      status: 'processing',
    });
    await expect(
      queries.getBody((await createPractice(t.ctx)).accountId, uid, 'v2'),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a uid already used and an unknown insurer, and stores neither', async () => {
    await search({ request_uid: 'visit-0002' });
    await expect(search({ request_uid: 'visit-0002' })).rejects.toMatchObject({
      status: 400,
      errors: { request_uid: { $: ['Eligibility request with this request uid already exists.'] } },
    });
    await expect(search({ insurer_code: 'insurer:vision:nobody' })).rejects.toMatchObject({
      status: 400,
    });
    const [{ n }] = await t.db.query(
      'SELECT count(*)::int AS n FROM eligibility_requests WHERE account_id = $1',
      [accountId],
    );
    expect(n).toBe(2);
  });
});
