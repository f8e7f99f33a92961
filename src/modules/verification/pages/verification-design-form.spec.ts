import { CompleteTaskDto } from '@/modules/verification/api/dto/verification-input.dto';
import { plansFromVerified } from '@/modules/verification/domain/verified-plans';
import {
  type DesignItem,
  withoutUsedValues,
} from '@/modules/verification/domain/plan-design-items';
import { serializePlanJson } from '@/lib/benefits';
import { bindForm } from '@/modules/web';
import { designFields } from './verification-design-form';
import { initialFields, verificationBody } from './verification-form';
import { ASKED, filled } from './verification-form.fixtures';
import type { TaskView } from '@/modules/verification/domain/task-view';

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
      // A verifier's last-used date is the payer's (docs/api.md, Next eligible dates).
      last_service: { date: '2026-05-01', source: 'payer' },
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
