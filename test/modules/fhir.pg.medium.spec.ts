import { BenefitHistory, CheckHooks } from '@/modules/eligibility';
import { FhirModule } from '@/modules/fhir';
import { FhirService } from '@/modules/fhir/domain/fhir.service';
import { createPractice } from '../support/factories';
import { DEMO } from '../support/eligibility';
import { submitBundle, UID_SYSTEM } from '../support/fhir';
import { expectValidFhir } from '../support/fhir-validators';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The FHIR door booted alone (test/support/module.ts), on the eligibility module and its real
 * store: a $submit stored as an ordinary search, read back as FHIR in its account only, a
 * refused Bundle storing nothing. No queue worker runs (ROLE api): the search stays queued.
 */
describe('fhir module, alone', () => {
  let t: ModuleContext;
  let fhir: FhirService;
  let accountId: string;
  let otherId: string;
  /** The event the audit guard prepares for a key of `account` (docs/api.md, Audit events). */
  const as = (account: string, action: 'create' | 'read') => ({
    actor: {
      accountId: account,
      type: 'api_key' as const,
      name: 'vk_test',
      apiKeyId: null,
      userId: null,
    },
    action,
    resourceType: 'eligibility_request',
    requestId: null,
    ip: null,
  });
  const stored = async () =>
    Number((await t.db.query('SELECT count(*)::int AS n FROM eligibility_requests'))[0].n);

  beforeAll(async () => {
    t = await bootModule(FhirModule, { openHooks: [CheckHooks, BenefitHistory] });
    fhir = t.ctx.get(FhirService);
    ({ accountId } = await createPractice(t.ctx));
    ({ accountId: otherId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with eligibility (and what it imports), without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'EligibilityModule',
      'FhirModule',
      'InsurersModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it('stores a $submit as a search under its uid, queued, read back in its account only', async () => {
    const [queued] = await fhir.submit(
      as(accountId, 'create'),
      submitBundle([DEMO], { memberId: 'M-1' }, { requestUid: 'fhir-medium-1' }),
    );
    expect(queued).toMatchObject({
      outcome: 'queued',
      identifier: [{ system: UID_SYSTEM, value: 'fhir-medium-1' }],
    });
    const [{ status, insurer_codes }] = await t.db.query(
      'SELECT status, insurer_codes FROM eligibility_requests WHERE uid = $1',
      ['fhir-medium-1'],
    );
    expect({ status, insurer_codes }).toEqual({ status: 'processing', insurer_codes: [DEMO] });
    const read = await fhir.response(as(accountId, 'read'), String(queued.id));
    expect(read).toEqual(queued);
    const patientId = String(queued.id).split('-')[0];
    const patient = await fhir.patient(as(accountId, 'read'), patientId);
    expectValidFhir(patient);
    expect(await fhir.coverage(as(accountId, 'read'), String(queued.id))).toMatchObject({
      subscriberId: 'M-1',
    });
    await expect(fhir.response(as(otherId, 'read'), String(queued.id))).rejects.toMatchObject({
      status: 404,
    });
    await expect(fhir.patient(as(otherId, 'read'), patientId)).rejects.toMatchObject({
      status: 404,
    });
    expect(await fhir.search(otherId, { identifier: [`${UID_SYSTEM}|fhir-medium-1`] })).toEqual([]);
    expect(await fhir.search(accountId, { identifier: [`${UID_SYSTEM}|fhir-medium-1`] })).toEqual([
      queued,
    ]);
  });

  it('answers the Patient of an erased request 404, its response still valid', async () => {
    const [queued] = await fhir.submit(
      as(accountId, 'create'),
      submitBundle([DEMO], {}, { requestUid: 'fhir-medium-erased' }),
    );
    // What the retention pass leaves of a request's patient (docs/api.md, FHIR R4).
    await t.db.query(`UPDATE eligibility_requests SET query = '{}'::jsonb WHERE uid = $1`, [
      'fhir-medium-erased',
    ]);
    const patientId = String(queued.id).split('-')[0];
    await expect(fhir.patient(as(accountId, 'read'), patientId)).rejects.toMatchObject({
      status: 404,
    });
    expectValidFhir(await fhir.response(as(accountId, 'read'), String(queued.id)));
    expectValidFhir(await fhir.coverage(as(accountId, 'read'), String(queued.id)));
  });

  it('stores nothing for a Bundle it refuses', async () => {
    const before = await stored();
    await expect(
      fhir.submit(as(accountId, 'create'), submitBundle(['insurer:vision:nope'])),
    ).rejects.toMatchObject({
      status: 400,
      errors: { $: ['Unknown insurer code: insurer:vision:nope.'] },
    });
    await expect(
      fhir.submit(as(accountId, 'create'), { resourceType: 'Bundle' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(await stored()).toBe(before);
  });

  it("audits a $submit and each read by the request's uid, as the JSON API does", async () => {
    const rows = await t.db.query(
      `SELECT action, resource_id FROM audit_events
        WHERE account_id = $1 AND resource_id = 'fhir-medium-1' ORDER BY action, resource_id`,
      [accountId],
    );
    expect(
      rows.map((r: { action: string; resource_id: string }) => [r.action, r.resource_id]),
    ).toEqual([
      ['create', 'fhir-medium-1'],
      ['read', 'fhir-medium-1'],
      ['read', 'fhir-medium-1'],
      ['read', 'fhir-medium-1'],
    ]);
    const [{ n }] = await t.db.query(
      'SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1',
      [otherId],
    );
    expect(n).toBe(0);
  });
});
