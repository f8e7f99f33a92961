import { AssistedTaskStats, InsurerCallStats } from '@/modules/insurers';
import { ClaimsModule } from '@/modules/claims';
import { ClaimsService } from '@/modules/claims/domain/claims.service';
import type { CreateClaimDto } from '@/modules/claims/api/dto/create-claim.dto';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

const maria = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  ssn_last_four: '4321',
  address: { line1: '1208 Congress Ave', city: 'Austin', zipcode: '78701', state: 'TX' },
};
const claim = (insurer = 'insurer:vision:vsp') =>
  ({
    patient: maria,
    primary_member: { ...maria, insurer_code: insurer },
    services: [
      {
        codes: ['92014'],
        date: '2026-11-14',
        quantity: 1,
        cost: '145.00',
        diagnosis_codes: ['H52.13'],
      },
    ],
    paid_amount: '145.00',
  }) as unknown as CreateClaimDto;

/**
 * The claims module booted alone (test/support/module.ts), without its pages (ClaimsPagesModule):
 * a claim stored ready with its services. Eligibility and verification, which answer the
 * insurers' figures, are not booted.
 */
describe('claims module, alone', () => {
  let t: ModuleContext;
  let claims: ClaimsService;
  let accountId: string;

  beforeAll(async () => {
    t = await bootModule(ClaimsModule, { openHooks: [AssistedTaskStats, InsurerCallStats] });
    claims = t.ctx.get(ClaimsService);
    ({ accountId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with the modules it imports, without the web shell or eligibility', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'ClaimsModule',
      'InsurersModule',
      'MailModule',
      'WebhooksModule',
    ]);
  });

  it('stores a claim as ready with its services, and reads it back for its account alone', async () => {
    const created = await claims.create(accountId, claim());
    expect(created).toMatchObject({ status: 'ready', status_history: [{ status: 'ready' }] });
    expect(await claims.getByCode(accountId, created.code)).toMatchObject({
      code: created.code,
      status: 'ready',
    });
    const other = await createPractice(t.ctx);
    await expect(claims.getByCode(other.accountId, created.code)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('refuses a claim to an unknown insurer, and stores nothing', async () => {
    await expect(claims.create(accountId, claim('insurer:vision:nobody'))).rejects.toMatchObject({
      status: 400,
      errors: { $: ['Unknown insurer code: insurer:vision:nobody.'] },
    });
    const [{ n }] = await t.db.query(
      'SELECT count(*)::int AS n FROM claims WHERE account_id = $1',
      [accountId],
    );
    expect(n).toBe(1);
  });
});
