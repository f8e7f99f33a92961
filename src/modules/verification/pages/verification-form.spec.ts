import { ValidationFailed } from '@/platform/kernel/errors';
import { CompleteTaskDto } from '@/modules/verification/api/dto/verification-input.dto';
import { type AskedPatient, plansFromVerified } from '@/modules/verification/domain/verified-plans';
import {
  type DesignItem,
  withoutUsedValues,
} from '@/modules/verification/domain/plan-design-items';
import { serializePlanJson } from '@/lib/benefits';
import { bindForm } from '@/modules/web';
import { designFields, initialFields, placeErrors, verificationBody } from './verification-form';
import type { TaskView } from '@/modules/verification/domain/task-view';

/** The patient as a task's search asked for them (no subscriber). */
const ASKED: AskedPatient = {
  first_name: 'Maria',
  last_name: 'Garcia',
  dob: '1984-06-15',
  zipcode: '78701',
  member_id: 'VSP104882211',
  ssn_last_four: null,
  subscriber: null,
};

const filled: Record<string, string> = {
  status: 'active',
  plan_name: 'VSP Choice',
  plan_group: 'Acme Manufacturing',
  plan_group_id: 'GRP-104233',
  plan_begin_date: '2026-01-01',
  plan_end_date: '2026-12-31',
  plan_refresh_date: '2027-01-01',
  oon_benefits: 'oon',
  p0_first_name: 'Maria',
  p0_last_name: 'Garcia',
  p0_dob: '1984-06-15',
  p0_sex: 'female',
  p0_member_id: 'VSP104882211',
  p0_relationship: 'self',
  p0_address_line1: '412 Oak Street',
  p0_address_line2: '',
  p0_address_city: 'Austin',
  p0_address_state: 'tx',
  p0_address_zipcode: '78701',
  p0_phone: '512-555-0142',
  exam_inn_copay: '10',
  exam_oon_allowance: '$45.50',
  exam_inn_quantity: '1',
  exam_inn_frequency: '12',
  frames_inn_allowance: '150',
  frames_oon_allowance: '70',
  frames_inn_frequency: '24',
  lens_single_vision_inn_copay: '25',
  cl_elective_inn_allowance: '1,130.00',
  opt_anti_reflective_inn_copay: '41',
  // A row left blank (spaces count as blank).
  lens_bifocal_inn_copay: '  ',
  evidence_source: 'portal',
  evidence_reference_number: 'REF-9',
  evidence_representative: '',
  evidence_checked_at: '2026-11-24T15:04:00Z',
};

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
});

/** The items a completed form leaves as its group's design (docs/api.md, Plan designs). */
async function designOf(fields: Record<string, string>): Promise<DesignItem[]> {
  const dto = await bindForm(CompleteTaskDto, verificationBody(fields).body);
  const [plan] = plansFromVerified(dto.plans, ASKED);
  return withoutUsedValues(JSON.parse(serializePlanJson(plan.persons[0].plan)).items);
}

/** The items a form started from `design` completes with, as the API prints them. */
async function completedItems(fields: Record<string, string>, design: DesignItem[]) {
  const { body, errors } = verificationBody(fields, design);
  expect(errors).toEqual({});
  const dto = await bindForm(CompleteTaskDto, body);
  const [plan] = plansFromVerified(dto.plans, ASKED, new Map([[0, { items: design }]]));
  return JSON.parse(serializePlanJson(plan.persons[0].plan)).items as DesignItem[];
}

/** What the page shows after "Start from this plan", the plan's dates confirmed. */
const startedFrom = (design: DesignItem[]) => ({
  ...initialFields({ patient: ASKED } as TaskView, new Date('2026-11-24T15:04:00Z')),
  ...designFields(design),
  plan_name: 'VSP Choice',
  plan_begin_date: '2027-01-01',
  plan_refresh_date: '2028-01-01',
  plan_design_id: '7c1e2f4a-93b5-4d0e-8a61-2b9f0c3d5e78',
});

describe('the benefit form started from a saved plan (docs/api.md, Plan designs)', () => {
  it('fills the rows a design saved from the form had, and completes with its tree on the new dates', async () => {
    const design = await designOf(filled);
    expect(designFields(design)).toEqual({
      exam_inn_copay: '10',
      exam_inn_quantity: '1',
      exam_inn_frequency: '12',
      exam_oon_allowance: '45.5',
      exam_oon_quantity: '1',
      exam_oon_frequency: '12',
      frames_inn_allowance: '150',
      frames_inn_quantity: '1',
      frames_inn_frequency: '24',
      frames_oon_allowance: '70',
      frames_oon_quantity: '1',
      frames_oon_frequency: '24',
      lens_single_vision_inn_copay: '25',
      cl_elective_inn_allowance: '1130',
      opt_anti_reflective_inn_copay: '41',
      oon_benefits: 'oon',
    });
    const fields = startedFrom(design);
    const { body } = verificationBody(fields, design);
    expect(body.plans[0]).toMatchObject({
      plan_design_id: fields.plan_design_id,
      plan_refresh_date: '2028-01-01',
    });
    const renewed = JSON.parse(JSON.stringify(design).replaceAll('2027-01-01', '2028-01-01'));
    expect(await completedItems(fields, design)).toEqual(renewed);
  });

  it('a row replaces only the entries it shows; other lists, flags, comments and children stay; a cleared cell drops its entry', async () => {
    const r = '2027-01-01';
    const design: DesignItem[] = [
      {
        benefit_code: 'exam',
        refresh_date: r,
        flags: ['exclusive-use'],
        copayment: [{ flags: ['inn'], comment: 'routine exam', value: '10.0000' }],
        coinsurance: [{ flags: ['oon'], value: '20.0000' }],
        quantity: [{ comment: 'once every 12 months', value: 1 }],
        items: [{ benefit_code: 'exam.routine', refresh_date: r, flags: ['required'], items: [] }],
      },
      {
        benefit_code: 'materials',
        refresh_date: r,
        flags: [],
        items: [
          {
            benefit_code: 'materials.frames',
            refresh_date: r,
            flags: [],
            allowance: [
              { flags: ['inn'], value: '150.0000' },
              { flags: ['oon'], value: '70.0000' },
            ],
            items: [],
          },
        ],
      },
    ];
    const fields = {
      ...startedFrom(design),
      exam_inn_copay: '15',
      exam_last_used: '2026-05-01',
      frames_oon_allowance: '',
      cl_elective_inn_allowance: '130',
    };
    const items = await completedItems(fields, design);
    const renew = '2028-01-01';
    expect(items[0]).toEqual({
      benefit_code: 'exam',
      refresh_date: renew,
      flags: ['exclusive-use'],
      copayment: [{ flags: ['inn'], comment: 'routine exam', value: '15.0000' }],
      coinsurance: [{ flags: ['oon'], value: '20.0000' }],
      quantity: [{ comment: 'once every 12 months', value: 1 }],
      items: [
        { benefit_code: 'exam.routine', refresh_date: renew, flags: ['required'], items: [] },
      ],
      last_service_date: '2026-05-01',
    });
    expect(items[1].items!.map((i) => [i.benefit_code, i.allowance])).toEqual([
      ['materials.frames', [{ flags: ['inn'], value: '150.0000' }]],
      ['materials.contact_lenses', undefined],
    ]);
    expect(items[1].items![1].items![0]).toMatchObject({
      benefit_code: 'materials.contact_lenses.elective',
      allowance: [{ flags: ['inn'], value: '130.0000' }],
    });
  });

  it('a last-used date without a design is its item’s last service date; a bad one is said by its cell', () => {
    const { body, errors } = verificationBody({ ...filled, frames_last_used: '2026-04-01' });
    expect(errors).toEqual({});
    expect(JSON.stringify(body)).toContain('"last_service_date":"2026-04-01"');
    const bad = verificationBody({ ...filled, frames_last_used: 'last spring' });
    expect(bad.errors).toEqual({
      frames_last_used: { $: ['Enter the date as mm/dd/yyyy, e.g. 06/15/1984.'] },
    });
  });
});
