import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { ClaimPerson, ClaimStatus } from '@/modules/claims/store/claim.entity';
import { ClaimsRepository } from '@/modules/claims/store/claims.repository';
import { BenefitHistoryService } from '@/modules/patients/domain/benefit-history.service';
import { BenefitHistoryRepository } from '@/modules/patients/store/benefit-history.repository';
import { PatientsRepository } from '@/modules/patients/store/patients.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const DEMO = 'insurer:demo:vision';
const tag = () => randomBytes(4).toString('hex').toUpperCase();

const person = (over: Partial<ClaimPerson> = {}): ClaimPerson => ({
  first_name: 'Rosa',
  last_name: 'Lineholder',
  dob: '1975-05-05',
  type: 'self',
  sex: 'female',
  member_id: 'RL-1',
  ssn_last_four: null,
  email: null,
  phone: null,
  address: null,
  ...over,
});

/**
 * docs/api.md, Next eligible dates (the practice's history): the statements that read it, one
 * snapshot each, and what the history service makes of their rows (a claim's remittance, its
 * status, the person it names), without HTTP.
 */
describe('benefit history: repositories and the history service', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let accountId: string;
  let otherAccountId: string;
  let locationId: string;
  let otherLocationId: string;
  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  /** A claim of `account` for `patient`, one line per code, all on `date`. */
  async function claim(
    patient: ClaimPerson,
    codes: string[],
    date: string,
    {
      status = 'submitted',
      account = 'own',
      insurer = DEMO,
    }: {
      status?: ClaimStatus;
      account?: 'own' | 'other';
      insurer?: string;
    } = {},
  ) {
    const own = account === 'own';
    const { claim: stored } = await t.ctx.get(ClaimsRepository).insert(
      {
        accountId: own ? accountId : otherAccountId,
        locationId: own ? locationId : otherLocationId,
        code: `CLM${tag()}`,
        status,
        statusHistory: [],
        createdAt: new Date(),
        insurerCode: insurer,
        patient,
        primaryMember: patient,
        paidAmount: '0.0000',
        acceptAssignment: false,
        metadata: null,
        renderingProvider: null,
      },
      codes.map((code, position) => ({
        position,
        codes: [code],
        serviceDate: date,
        quantity: 1,
        cost: '100.0000',
        diagnosisCodes: [],
      })),
    );
    return stored;
  }

  beforeAll(async () => {
    t = await createTestContext();
    ({ accountId, locationId } = await createPractice(t.ctx));
    ({ accountId: otherAccountId, locationId: otherLocationId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('stores staff entries once per patient, insurer, benefit and day, and finds them by person', async () => {
    const repo = t.ctx.get(BenefitHistoryRepository);
    const patient = await t.ctx.get(PatientsRepository).insert({
      accountId,
      locationId,
      code: `PAT${tag()}`,
      firstName: 'rosa',
      lastName: 'lineholder',
      dob: '1975-05-05',
    });
    const entry = { insurerCode: DEMO, benefitCode: 'materials.frames', date: '2025-04-01' };
    const first = await rec('upsert', () =>
      repo.upsert(accountId, patient.id, { ...entry, note: 'first' }),
    );
    const again = await repo.upsert(accountId, patient.id, { ...entry, note: 'second' });
    expect(again).toMatchObject({ id: first.id, note: 'second', date: '2025-04-01' });
    expect(await rec('ofPatient', () => repo.ofPatient(accountId, patient.id))).toEqual([again]);
    const people = [{ firstName: 'rosa', lastName: 'lineholder', dob: '1975-05-05' }];
    const found = await rec('ofPeople', () => repo.ofPeople(accountId, people, [DEMO]));
    expect(found).toEqual([
      { ...again, firstName: 'rosa', lastName: 'lineholder', dob: '1975-05-05' },
    ]);
    expect(await repo.ofPeople(otherAccountId, people, [DEMO])).toEqual([]);
    expect(await repo.ofPeople(accountId, people, ['insurer:vision:vsp'])).toEqual([]);
  });

  it("reads claims' lines by date of birth, leaving out claims that used no benefit", async () => {
    const rosa = person();
    const kept = await claim(rosa, ['V2020', '92310'], '2025-06-01');
    await claim(rosa, ['V2100'], '2025-07-01', { status: 'denied' });
    await claim(rosa, ['V2100'], '2025-07-02', { account: 'other' });
    const lines = await rec('claims.linesOfPatients', () =>
      t.ctx.get(ClaimsRepository).linesOfPatients(accountId, ['1975-05-05'], [DEMO], 10),
    );
    expect(lines.map((l) => [l.claimCode, l.codes, l.serviceDate])).toEqual([
      [kept.code, ['V2020'], '2025-06-01'],
      [kept.code, ['92310'], '2025-06-01'],
    ]);
  });

  it("a claim's line the 835 paid is the remittance's; one it paid nothing on stays the claim's", async () => {
    const who = person({
      first_name: 'Remi',
      last_name: 'Tance',
      dob: '1981-01-01',
      member_id: 'RT-9',
    });
    const paid = await claim(who, ['V2020', 'V2100'], '2025-05-10');
    await t.ctx.get(ClaimsRepository).update(paid.id, {
      status: 'paid',
      remittance: {
        remittance_id: 'R-1',
        status_code: '1',
        charge: '200.0000',
        paid_amount: '80.0000',
        patient_responsibility: '120.0000',
        payer_claim_control_number: null,
        paid_at: null,
        payment_method: 'CHK',
        trace_number: 'T-1',
        adjustments: [],
        remarks: [],
        service_lines: [
          { codes: ['V2020', 'RT'], charge: '100.0000', paid: '80.0000', adjustments: [] },
          { codes: ['V2100'], charge: '100.0000', paid: '0.0000', adjustments: [] },
        ],
      },
    });
    const [records] = await t.ctx.get(BenefitHistoryService).servicesOf(accountId, [
      {
        insurerCode: DEMO,
        person: { firstName: ' REMI', lastName: 'tance', dob: '1981-01-01', memberId: 'rt 9' },
      },
    ]);
    expect(records).toEqual(
      expect.arrayContaining([
        { benefit_code: 'materials.frames', date: '2025-05-10', source: 'remittance' },
        {
          benefit_code: 'materials.spectacle_lenses.single_vision',
          date: '2025-05-10',
          source: 'claim',
        },
      ]),
    );
    expect(records).toHaveLength(2);
  });

  it('matches a person to a claim exactly when dob and names agree, and member ids do where both are given', async () => {
    const base = { first_name: 'Mateo', last_name: 'Matchwell', dob: '1992-03-04' };
    await claim(person({ ...base, member_id: 'MW-77' }), ['92014'], '2025-03-03');
    const service = t.ctx.get(BenefitHistoryService);
    const variant = fc.record({
      firstName: fc.constantFrom('Mateo', 'MATEO', ' mateo ', 'Matteo'),
      lastName: fc.constantFrom('Matchwell', 'matchwell', 'Match well'),
      dob: fc.constantFrom('1992-03-04', '1992-04-03'),
      memberId: fc.constantFrom(null, 'MW-77', 'mw77', 'MW-78'),
    });
    await fc.assert(
      fc.asyncProperty(variant, async (who) => {
        const [records] = await service.servicesOf(accountId, [{ insurerCode: DEMO, person: who }]);
        const expected =
          who.firstName.trim().toLowerCase() === 'mateo' &&
          who.lastName.toLowerCase() === 'matchwell' &&
          who.dob === '1992-03-04' &&
          who.memberId !== 'MW-78';
        expect(records.length > 0).toBe(expected);
        // Another account's history is never read, whoever is asked about.
        const [theirs] = await service.servicesOf(otherAccountId, [
          { insurerCode: DEMO, person: who },
        ]);
        expect(theirs).toEqual([]);
      }),
      { seed: 7, numRuns: 60 },
    );
  });
});
