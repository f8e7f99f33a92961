import {
  HEADER_TO_SUBSCRIBER,
  inactive271,
  transaction271,
} from '../../../../../test/x12/fixtures';
import { janePlan, janeTree, plans271 } from '../../../../../test/x12/mapped271';
import { percentOf } from './benefit-tree';

describe('271 → result mapper: benefit tree, status, dates, persons', () => {
  describe('benefits the 271 does not state stay absent', () => {
    it('an active plan with no benefit lines has no items and no lists', () => {
      expect(janeTree(['EB*1*IND*30~'])).toEqual({
        insurer_state: 'inn',
        items: [],
        refresh_date: null,
        begin_date: '2026-03-15',
        end_date: null,
        flags: [],
      });
    });

    it('a covered service type without values is an item without lists', () => {
      const tree = janeTree(['EB*1*IND*AL^AM~', 'MSG*FRAMES FROM THE PLAN COLLECTION~']);
      expect(tree.items).toEqual([
        {
          benefit_code: 'materials',
          refresh_date: '2027-03-15',
          items: [
            {
              benefit_code: 'materials.frames',
              refresh_date: '2027-03-15',
              items: [],
              comment: 'FRAMES FROM THE PLAN COLLECTION',
            },
          ],
        },
      ]);
    });

    it('leaves out lines of unmapped service types, procedures and periods', () => {
      const tree = janeTree([
        'EB*1*IND*30~',
        'EB*B*IND*BR***27*15*****Y~',
        'EB*F*IND*BR***23*60*****N*HC:99213~',
        'EB*F*IND*AN******DY*30~',
      ]);
      expect(tree.items).toEqual([]);
      expect(tree).not.toHaveProperty('copayment');
    });

    it('a lens add-on code goes to its option under spectacle lenses, a progressive code to its own item', () => {
      const [materials] = janeTree([
        'EB*B*IND*AO***27*45*****Y*HC:V2750~',
        'EB*B*IND*AO***27*65*****Y*HC:V2781~',
      ]).items;
      const lenses = materials.items?.[0];
      expect(lenses?.benefit_code).toBe('materials.spectacle_lenses');
      expect(lenses).not.toHaveProperty('copayment');
      expect(lenses?.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            benefit_code: 'materials.spectacle_lenses.options',
            items: [
              expect.objectContaining({
                benefit_code: 'materials.spectacle_lenses.options.anti_reflective',
                copayment: [{ flags: ['inn'], comment: 'per visit', value: '45' }],
              }),
            ],
          }),
          expect.objectContaining({
            benefit_code: 'materials.spectacle_lenses.progressive',
            copayment: [{ flags: ['inn'], comment: 'per visit', value: '65' }],
          }),
        ]),
      );
    });
  });

  it('keeps in-network, out-of-network and both-network copays of one service type apart', () => {
    const tree = janeTree([
      'EB*1*IND*30~',
      'EB*B*IND*AN***27*10*****Y~',
      'EB*B*IND*AN***27*35*****N~',
      'EB*B*FAM*AN***27*5*****W~',
      'EB*A*IND*AN*****0.125****N~',
      'EB*F*IND*AN***29*45*****N~',
    ]);
    expect(tree.items[0].items?.[0]).toMatchObject({
      benefit_code: 'exam.routine',
      copayment: [
        { flags: ['inn'], comment: 'per visit', value: '10' },
        { flags: ['oon'], comment: 'per visit', value: '35' },
        { comment: 'per visit; family', value: '5' },
      ],
      coinsurance: [{ flags: ['oon'], value: '12.5' }],
      allowance: [{ flags: ['oon'], comment: 'remaining', value: '45' }],
    });
    expect(tree.insurer_state).toBe('oon');
  });

  describe('plan status, dates and persons', () => {
    it('an inactive subscriber: EB*6, its DTP*307 range is the inquiry date, not the plan dates (docs/api.md, Real insurers), payer name as plan name', () => {
      const [plan] = plans271(inactive271());
      const { persons, ...fields } = plan;
      expect(fields).toEqual({
        status: 'inactive',
        planName: 'DAVIS VISION',
        planGroup: '',
        planGroupId: null,
        planBeginDate: '2026-03-15',
        planEndDate: null,
        planRefreshDate: null,
        planIsActive: false,
      });
      expect(persons).toHaveLength(1);
      expect(persons[0]).toMatchObject({ isActive: false, dob: '1980-01-15', sex: 'unknown' });
      expect(persons[0].plan.items).toEqual([]);
    });

    it('a 271 without a coverage line is unavailable, not active', () => {
      const plan = janePlan(['EB*B*IND*AN***27*10*****Y~']);
      expect(plan).toMatchObject({ status: 'unavailable', planIsActive: false });
      expect(plan.persons[0].isActive).toBeNull();
    });

    it('a dependent without its own benefit lines gets the subscriber tree; one without a DOB is left out', () => {
      const text = transaction271([
        ...HEADER_TO_SUBSCRIBER,
        'NM1*IL*1*DOE*JANE****MI*DV1234567~',
        'EB*1*IND*30**GOLD VISION~',
        'EB*B*IND*AN***27*10*****Y~',
        'HL*4*3*23*0~',
        'NM1*03*1*DOE*JOHN****MI*DV1234567-02~',
        'DMG*D8*19790704*M~',
        'INS*N*01~',
        'EB*1*IND*30~',
        'HL*5*3*23*0~',
        'NM1*03*1*DOE*ANNA~',
        'INS*N*19~',
      ]);
      const [plan] = plans271(text);
      expect(plan.planName).toBe('GOLD VISION');
      expect(plan.persons.map((p) => [p.firstName, p.type, p.memberId, p.dob])).toEqual([
        ['JANE', 'self', 'DV1234567', '1980-01-15'],
        ['JOHN', 'spouse', 'DV1234567-02', '1979-07-04'],
      ]);
      expect(plan.persons[1].plan.items).toEqual(plan.persons[0].plan.items);
      expect(plan.persons[1].plan.items).toHaveLength(1);
    });

    it('uses the DOB asked about when the 271 has no DMG for the subscriber', () => {
      const text = transaction271([...HEADER_TO_SUBSCRIBER, 'NM1*IL*1*DOE*JANE~', 'EB*1*IND*30~']);
      expect(plans271(text)[0].persons[0]).toMatchObject({ dob: '1980-01-15', memberId: null });
    });
  });

  it('turns EB08 fractions into percents exactly', () => {
    expect(['0.2', '0.125', '1', '0', '0.05', '0.3333'].map(percentOf)).toEqual([
      '20',
      '12.5',
      '100',
      '0',
      '5',
      '33.33',
    ]);
  });
});
