/**
 * The worked example of the OpenAPI document: a VSP-like plan sent inline, a receipt of exam,
 * frame, two single-vision lenses and a refraction, and the answer. estimate.examples.spec.ts
 * checks that the rules give exactly this answer, so the document cannot drift from the code.
 */

const R = '2027-01-01';

export const EXAMPLE_PLAN = {
  insurer_state: 'oon',
  refresh_date: R,
  begin_date: '2026-01-01',
  end_date: '2026-12-31',
  flags: [],
  items: [
    {
      benefit_code: 'exam',
      refresh_date: R,
      flags: [],
      copayment: [{ flags: ['inn'], value: '10.0000' }],
      allowance: [{ flags: ['oon'], comment: 'reimbursed up to this amount', value: '45.0000' }],
      quantity: [{ comment: 'once every 12 months', value: 1 }],
      quantity_accepted: [{ value: 0 }],
      items: [
        { benefit_code: 'exam.routine', refresh_date: R, flags: ['exclusive-use'], items: [] },
      ],
    },
    {
      benefit_code: 'materials',
      refresh_date: R,
      flags: [],
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: R,
          flags: [],
          allowance: [
            { flags: ['inn'], value: '150.0000' },
            { flags: ['oon'], value: '70.0000' },
          ],
          quantity: [{ comment: 'one frame every 24 months', value: 1 }],
          quantity_accepted: [{ value: 0 }],
          items: [],
        },
        {
          benefit_code: 'materials.spectacle_lenses',
          refresh_date: R,
          flags: [],
          items: [
            {
              benefit_code: 'materials.spectacle_lenses.single_vision',
              refresh_date: R,
              flags: ['exclusive-use'],
              copayment: [{ flags: ['inn'], value: '25.0000' }],
              allowance: [{ flags: ['oon'], value: '30.0000' }],
              items: [],
            },
          ],
        },
      ],
    },
  ],
};

export const EXAMPLE_SERVICES = [
  { codes: ['92014'], cost: '120.00' },
  { codes: ['V2020'], cost: '150.00' },
  { codes: ['V2100'], cost: '55.00', quantity: 2 },
  { codes: ['92015'], cost: '40.00' },
];

export const EXAMPLE_INLINE_REQUEST = {
  plan: EXAMPLE_PLAN,
  network: 'oon',
  services: EXAMPLE_SERVICES,
};

export const EXAMPLE_STORED_REQUEST = {
  request_uid: 'visit-2026-11-21-0042',
  person_id: 97,
  network: 'oon',
  services: EXAMPLE_SERVICES,
};

/** The answer to both example requests (the stored result holds the same plan). */
export const EXAMPLE_RESPONSE = {
  network: 'oon',
  total_cost: '420.0000',
  estimated_reimbursement: '145.0000',
  patient_responsibility: '275.0000',
  groups: [
    {
      benefit_code: 'exam.routine',
      copayment: '0.0000',
      max_after_copayment: '120.0000',
      sum_of_caps: '45.0000',
      reimbursement: '45.0000',
    },
    {
      benefit_code: 'materials.frames',
      copayment: '0.0000',
      max_after_copayment: '150.0000',
      sum_of_caps: '70.0000',
      reimbursement: '70.0000',
    },
    {
      benefit_code: 'materials.spectacle_lenses.single_vision',
      copayment: '0.0000',
      max_after_copayment: '110.0000',
      sum_of_caps: '30.0000',
      reimbursement: '30.0000',
    },
  ],
  lines: [
    {
      index: 0,
      codes: ['92014'],
      benefit_code: 'exam.routine',
      cost: '120.0000',
      quantity: 1,
      charge: '120.0000',
      cap: '45.0000',
      capped: '45.0000',
      notes: [
        '92014 maps to exam.routine',
        'out-of-network allowance $45.00 on exam, inherited by exam.routine (reimbursed up to this amount)',
        'charge $120.00 is over the cap: $45.00 counts',
      ],
    },
    {
      index: 1,
      codes: ['V2020'],
      benefit_code: 'materials.frames',
      cost: '150.0000',
      quantity: 1,
      charge: '150.0000',
      cap: '70.0000',
      capped: '70.0000',
      notes: [
        'V2020 maps to materials.frames',
        'out-of-network allowance $70.00 on materials.frames',
        'charge $150.00 is over the cap: $70.00 counts',
      ],
    },
    {
      index: 2,
      codes: ['V2100'],
      benefit_code: 'materials.spectacle_lenses.single_vision',
      cost: '55.0000',
      quantity: 2,
      charge: '110.0000',
      cap: '30.0000',
      capped: '30.0000',
      notes: [
        'V2100 maps to materials.spectacle_lenses.single_vision',
        'out-of-network allowance $30.00 on materials.spectacle_lenses.single_vision',
        'charge $110.00 is over the cap: $30.00 counts',
      ],
    },
    {
      index: 3,
      codes: ['92015'],
      benefit_code: null,
      cost: '40.0000',
      quantity: 1,
      charge: '40.0000',
      cap: null,
      capped: '0.0000',
      notes: ['no benefit is mapped for 92015: not reimbursed'],
    },
  ],
};
