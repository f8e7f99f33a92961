/** Realistic vision claims for the OpenAPI document. */

const address = {
  line1: '1208 Congress Ave',
  line2: 'Apt 4B',
  city: 'Austin',
  zipcode: '78701',
  state: 'TX',
  recipient: null,
};

/** The member of the examples; the 837P spec's member is her, without her optional fields. */
export const MARIA_EXAMPLE = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  ssn_last_four: '4321',
  email: 'maria.gonzalez@example.com',
  phone: '512-555-0142',
  address,
};

/**
 * Exam, two single-vision lenses and a frame for the member herself, at VSP. `cost` is per unit:
 * 145 + 45 × 2 + 75 = 310.
 */
export const VSP_CLAIM_EXAMPLE = {
  patient: MARIA_EXAMPLE,
  primary_member: { ...MARIA_EXAMPLE, insurer_code: 'insurer:vision:vsp' },
  services: [
    {
      codes: ['92014'],
      date: '2026-11-14',
      quantity: 1,
      cost: '145.00',
      diagnosis_codes: ['H52.13'],
    },
    {
      codes: ['V2100'],
      date: '2026-11-14',
      quantity: 2,
      cost: '45.00',
      diagnosis_codes: ['H52.13'],
    },
    { codes: ['V2020'], date: '2026-11-14', quantity: 1, cost: '75.00' },
  ],
  paid_amount: '310.00',
  accept_assignment: false,
  metadata: { account_number: 'CHART-20931' },
  location_code: 'LOC7K2M9QXA',
};

/** A child's exam at EyeMed: the patient is a dependent, so both member IDs are given. */
export const EYEMED_CHILD_CLAIM_EXAMPLE = {
  patient: {
    first_name: 'Lucas',
    last_name: 'Gonzalez',
    dob: '2015-09-03',
    type: 'child',
    sex: 'male',
    member_id: 'EM55120873-02',
    ssn_last_four: null,
    email: null,
    phone: null,
    address,
  },
  primary_member: {
    ...MARIA_EXAMPLE,
    member_id: 'EM55120873',
    insurer_code: 'insurer:vision:eye_med',
  },
  services: [
    { codes: ['92004'], date: '2026-11-10', quantity: '1', cost: 160, diagnosis_codes: ['H52.03'] },
  ],
  paid_amount: 160,
  accept_assignment: true,
  metadata: { account_number: 'CHART-20932', visit: 'pediatric' },
  location_code: '',
};

export const CLAIM_RESPONSE_EXAMPLE = {
  code: 'CLM8D3K6TQW',
  status: 'ready',
  status_history: [{ status: 'ready', at: '2026-11-21T13:51:16.926+00:00', detail: null }],
  submission: null,
  remittance: null,
  patient: MARIA_EXAMPLE,
  primary_member: { ...MARIA_EXAMPLE, insurer_code: 'insurer:vision:vsp' },
  // The request's lines as answered: costs with four decimals, every line with its diagnoses.
  services: VSP_CLAIM_EXAMPLE.services.map((line) => ({
    ...line,
    cost: `${line.cost}00`,
    diagnosis_codes: line.diagnosis_codes ?? [],
  })),
  paid_amount: '310.0000',
  total_cost: '310.0000',
  accept_assignment: false,
  metadata: { account_number: 'CHART-20931' },
  rendering_provider: null,
  location_code: 'LOC7K2M9QXA',
  location: { status: 'enabled', title: 'Downtown Eye Care', code: 'LOC7K2M9QXA' },
  created_at: '2026-11-21T13:51:16.926+00:00',
  warnings: [],
};
