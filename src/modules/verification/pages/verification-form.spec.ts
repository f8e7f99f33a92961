import { ValidationFailed } from '@/platform/kernel/errors';
import { CompleteTaskDto } from '@/modules/verification/api/dto/verification-input.dto';
import { type AskedPatient, plansFromVerified } from '@/modules/verification/domain/verified-plans';
import { bindForm } from '@/modules/web';
import { initialFields, placeErrors, verificationBody } from './verification-form';
import { ASKED, filled } from './verification-form.fixtures';
import { ADDRESS_PART_NEEDED } from './verification-persons';
import type { TaskView } from '@/modules/verification/domain/task-view';

describe('verificationBody (web benefit form → CompleteTaskDto)', () => {
  it('a filled form gives a plan that passes CompleteTaskDto with what was typed', async () => {
    const { body, errors } = verificationBody(filled);
    expect(errors).toEqual({});
    const dto = await bindForm(CompleteTaskDto, body);
    expect(dto.evidence).toMatchObject({ source: 'portal', reference_number: 'REF-9' });
    const [plan] = plansFromVerified(dto.plans, ASKED);
    expect(plan).toMatchObject({
      status: 'active',
      planName: 'VSP Choice',
      planGroupId: 'GRP-104233',
      planIsActive: true,
      planRefreshDate: '2027-01-01',
    });
    const person = plan.persons[0];
    expect(person).toMatchObject({
      firstName: 'Maria',
      sex: 'female',
      memberId: 'VSP104882211',
      type: 'self',
      address: { line1: '412 Oak Street', line2: null, state: 'TX', zipcode: '78701' },
    });
    expect(person.plan.insurer_state).toBe('oon');
    const r = '2027-01-01';
    expect(person.plan.items).toEqual([
      {
        benefit_code: 'exam',
        refresh_date: r,
        copayment: [{ flags: ['inn'], value: '10' }],
        // The out-of-network frequency left blank is the in-network one.
        quantity: [
          { flags: ['inn'], value: 1, comment: 'every 12 months' },
          { flags: ['oon'], value: 1, comment: 'every 12 months' },
        ],
        allowance: [{ flags: ['oon'], value: '45.50' }],
      },
      {
        benefit_code: 'materials',
        refresh_date: r,
        items: [
          {
            benefit_code: 'materials.frames',
            refresh_date: r,
            allowance: [
              { flags: ['inn'], value: '150' },
              { flags: ['oon'], value: '70' },
            ],
            quantity: [
              { flags: ['inn'], value: 1, comment: 'every 24 months' },
              { flags: ['oon'], value: 1, comment: 'every 24 months' },
            ],
          },
          {
            benefit_code: 'materials.spectacle_lenses',
            refresh_date: r,
            items: [
              {
                benefit_code: 'materials.spectacle_lenses.single_vision',
                refresh_date: r,
                copayment: [{ flags: ['inn'], value: '25' }],
              },
              {
                benefit_code: 'materials.spectacle_lenses.options',
                refresh_date: r,
                items: [
                  {
                    benefit_code: 'materials.spectacle_lenses.options.anti_reflective',
                    refresh_date: r,
                    copayment: [{ flags: ['inn'], value: '41' }],
                  },
                ],
              },
            ],
          },
          {
            benefit_code: 'materials.contact_lenses',
            refresh_date: r,
            items: [
              {
                benefit_code: 'materials.contact_lenses.elective',
                refresh_date: r,
                allowance: [{ flags: ['inn'], value: '1130.00' }],
              },
            ],
          },
        ],
      },
    ]);
  });

  it('an empty row gives no item', () => {
    const { body } = verificationBody({ ...filled, lens_single_vision_inn_copay: '' });
    const json = JSON.stringify(body);
    expect(json).not.toContain('single_vision');
    expect(json).not.toContain('bifocal');
    expect(json).toContain('materials.frames');
  });

  it('a bad amount gives a field error next to its cell', async () => {
    const { body, fieldOf, errors } = verificationBody({
      ...filled,
      frames_oon_allowance: 'seventy',
      exam_inn_frequency: 'yearly',
    });
    expect(errors).toEqual({ exam_inn_frequency: { $: ['Enter the number of months, e.g. 12.'] } });
    const refused = await bindForm(CompleteTaskDto, body).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
    const placed = placeErrors((refused as ValidationFailed).errors, fieldOf);
    expect(placed).toEqual({ frames_oon_allowance: { $: ['A valid number is required.'] } });
  });

  it('places missing plan and evidence fields by their form names', async () => {
    const { body, fieldOf } = verificationBody({ ...filled, plan_name: '', evidence_source: '' });
    const refused = (await bindForm(CompleteTaskDto, body).catch(
      (e: unknown) => e,
    )) as ValidationFailed;
    const placed = placeErrors(refused.errors, fieldOf);
    expect(Object.keys(placed).sort()).toEqual(['evidence_source', 'plan_name']);
  });

  it('asks to tick out-of-network when out-of-network values are typed', () => {
    const { errors, body } = verificationBody({ ...filled, oon_benefits: '' });
    expect(Object.keys(errors)).toEqual(['oon_benefits']);
    expect(JSON.stringify(body)).toContain('"insurer_state":"inn"');
  });

  it('keeps a blank out-of-network frequency blank when the row has no out-of-network value', () => {
    const { body } = verificationBody({
      ...filled,
      exam_oon_allowance: '',
      frames_oon_allowance: '',
    });
    const json = JSON.stringify(body);
    expect(json).not.toContain('"flags":["oon"],"value":1');
  });
});

/** A dependent's search: the patient Lucia, her mother Maria the subscriber. */
const DEPENDENT: AskedPatient = {
  first_name: 'Lucia',
  last_name: 'Garcia',
  dob: '2015-03-02',
  zipcode: '78701',
  member_id: null,
  ssn_last_four: null,
  subscriber: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', member_id: 'VSP77' },
};

/** What the page shows first for a dependent's task, with a plan typed; no address anywhere. */
function dependentForm(): Record<string, string> {
  const first = initialFields({ patient: DEPENDENT } as TaskView, new Date('2026-11-24T15:04:00Z'));
  return {
    ...first,
    plan_name: 'VSP Choice',
    plan_begin_date: '2026-01-01',
    plan_refresh_date: '2027-01-01',
    exam_inn_copay: '10',
  };
}

describe('the benefit form for a dependent (one block per person, only what a portal shows)', () => {
  it('shows the subscriber as `self` and the patient as a dependent, never `self`', () => {
    const first = initialFields({ patient: DEPENDENT } as TaskView);
    expect(first).toMatchObject({
      p0_first_name: 'Maria',
      p0_dob: '1984-06-15',
      p0_member_id: 'VSP77',
      p0_relationship: 'self',
      p1_first_name: 'Lucia',
      p1_dob: '2015-03-02',
      p1_relationship: 'dependent',
    });
    expect(Object.keys(first).filter((k) => k.includes('address'))).toEqual([]);
  });

  it('completes with both persons and no address, sex or phone', async () => {
    const { body, errors } = verificationBody(dependentForm());
    expect(errors).toEqual({});
    const dto = await bindForm(CompleteTaskDto, body);
    const [plan] = plansFromVerified(dto.plans, DEPENDENT);
    expect(plan.persons.map((p) => [p.firstName, p.dob, p.type, p.memberId])).toEqual([
      ['Maria', '1984-06-15', 'self', 'VSP77'],
      ['Lucia', '2015-03-02', 'dependent', null],
    ]);
    expect(plan.persons.map((p) => [p.address, p.sex, p.phone])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(plan.persons[1].plan.items.map((i) => i.benefit_code)).toEqual(['exam']);
  });

  it('a block added and left blank is no person; errors of a second block are by its fields', async () => {
    const added = verificationBody({ ...dependentForm(), p2_relationship: 'child' });
    expect(added.body.plans[0].persons).toHaveLength(2);
    const { body, fieldOf } = verificationBody({ ...dependentForm(), p1_sex: 'x'.repeat(30) });
    const refused = (await bindForm(CompleteTaskDto, body).catch(
      (e: unknown) => e,
    )) as ValidationFailed;
    expect(Object.keys(placeErrors(refused.errors, fieldOf))).toEqual(['p1_sex']);
  });

  it('an empty date says "Enter a date."; a wrong one names the format the picker shows', () => {
    const empty = verificationBody({
      ...dependentForm(),
      plan_begin_date: '',
      plan_refresh_date: ' ',
    });
    expect(empty.errors).toEqual({
      plan_begin_date: { $: ['Enter a date.'] },
      plan_refresh_date: { $: ['Enter a date.'] },
    });
    const wrong = verificationBody({
      ...dependentForm(),
      p1_dob: '2015-13-02',
      plan_end_date: 'soon',
    });
    const format = 'Enter the date as mm/dd/yyyy, e.g. 06/15/1984.';
    expect(wrong.errors).toEqual({ p1_dob: { $: [format] }, plan_end_date: { $: [format] } });
    const typed = verificationBody({ ...dependentForm(), p1_dob: '3/2/2015' });
    expect(typed.errors).toEqual({});
    expect(typed.body.plans[0]).toMatchObject({ persons: [{}, { dob: '2015-03-02' }] });
  });

  it('a state typed as its name is stored as its code; an unknown one asks for the code', async () => {
    const address = {
      p1_address_line1: '412 Oak Street',
      p1_address_city: 'Austin',
      p1_address_zipcode: '78701',
    };
    const named = verificationBody({ ...dependentForm(), ...address, p1_address_state: ' texas ' });
    expect(named.errors).toEqual({});
    const dto = await bindForm(CompleteTaskDto, named.body);
    expect(plansFromVerified(dto.plans, DEPENDENT)[0].persons[1].address).toMatchObject({
      state: 'TX',
    });
    const unknown = verificationBody({ ...dependentForm(), ...address, p1_address_state: 'Tejas' });
    expect(unknown.errors).toEqual({
      p1_address_state: { $: ['Use the two-letter code, e.g. TX.'] },
    });
  });

  it('an address is all or nothing: each missing part says why once any part is typed', async () => {
    const why = { $: [ADDRESS_PART_NEEDED] };
    const state = verificationBody({ ...dependentForm(), p1_address_state: 'TX' });
    expect(state.errors).toEqual({
      p1_address_line1: why,
      p1_address_city: why,
      p1_address_zipcode: why,
    });
    const apartment = verificationBody({ ...dependentForm(), p1_address_line2: 'Apt 4' });
    expect(Object.keys(apartment.errors).sort()).toEqual([
      'p1_address_city',
      'p1_address_line1',
      'p1_address_state',
      'p1_address_zipcode',
    ]);
    // The form asks what the API takes: a whole address passes its DTO; none is none.
    const whole = verificationBody({
      ...dependentForm(),
      p1_address_line1: '412 Oak Street',
      p1_address_city: 'Austin',
      p1_address_state: 'TX',
      p1_address_zipcode: '78701',
    });
    expect(whole.errors).toEqual({});
    await expect(bindForm(CompleteTaskDto, whole.body)).resolves.toBeDefined();
    expect(verificationBody(dependentForm()).errors).toEqual({});
  });
});
