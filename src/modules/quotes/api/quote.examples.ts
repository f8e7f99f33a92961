import type { MaterialsList } from '@/lib/benefits';

/**
 * The worked example of the OpenAPI document and of docs/api.md, The counter: the contract's
 * price list on an inline plan, an order of a frame, premium progressives (tier 2), an
 * anti-reflective coating and polycarbonate for a nine-year-old, and the answer.
 * quote.examples.spec.ts checks that the rule gives exactly this answer.
 */

export const EXAMPLE_MATERIALS = {
  network: 'inn',
  frame: { allowance: '150.00', discount_percent: '20', code: 'V2020' },
  lenses: {
    single_vision: { copayment: '25.00' },
    progressive_standard: { copayment: '65.00' },
    progressive_premium: {
      tiers: {
        '1': { copayment: '95.00' },
        '2': { copayment: '110.00' },
        '3': { copayment: '135.00' },
        '4': { copayment: '185.00' },
      },
    },
  },
  lens_options: {
    anti_reflective_standard: { copayment: '45.00', code: 'V2750' },
    polycarbonate: { copayment: '15.00', max_age: 18, code: 'V2784' },
    photochromic: { discount_percent: '20' },
  },
  contact_lenses: {
    elective: { allowance: '130.00' },
    fitting_standard: { copayment: '25.00' },
    fitting_premium: {
      copayment: '25.00',
      allowance: '55.00',
      discount_percent: '10',
      discount_on: 'retail',
    },
  },
  in_lieu_of: [
    ['contact_lenses', 'frame'],
    ['contact_lenses', 'lenses'],
  ],
} satisfies MaterialsList;

export const EXAMPLE_QUOTE_REQUEST = {
  plan: {
    insurer_state: 'inn',
    items: [
      {
        benefit_code: 'materials.frames',
        refresh_date: '2027-01-01',
        next_eligible_date: '2026-01-15',
      },
    ],
    materials: EXAMPLE_MATERIALS,
  },
  date_of_service: '2026-11-21',
  patient_age: 9,
  order: {
    frame: { retail: '189.00' },
    lenses: { type: 'progressive_premium', tier: 2, retail: '320.00' },
    lens_options: [
      { option: 'anti_reflective_standard', retail: '95.00' },
      { option: 'polycarbonate', retail: '60.00' },
    ],
  },
};

export const EXAMPLE_QUOTE_STORED_REQUEST = {
  request_uid: 'visit-2026-11-21-0042',
  person_id: 97,
  date_of_service: '2026-11-21',
  order: EXAMPLE_QUOTE_REQUEST.order,
};

/** The answer to EXAMPLE_QUOTE_REQUEST (its id aside). */
export const EXAMPLE_QUOTE_RESPONSE = {
  id: '3f0c2a9e-8d6b-4c1e-9a57-2b4d6e8f0a13',
  lines: [
    {
      item: 'frame',
      code: 'V2020',
      retail: '189.0000',
      plan_covers: '157.8000',
      patient_pays: '31.2000',
      reason: 'allowance $150.00, then 20 % off the $39.00 over it',
    },
    {
      item: 'lenses',
      code: null,
      retail: '320.0000',
      plan_covers: '210.0000',
      patient_pays: '110.0000',
      reason: 'copayment $110.00, then covered in full',
    },
    {
      item: 'anti_reflective_standard',
      code: 'V2750',
      retail: '95.0000',
      plan_covers: '50.0000',
      patient_pays: '45.0000',
      reason: 'copayment $45.00, then covered in full',
    },
    {
      item: 'polycarbonate',
      code: 'V2784',
      retail: '60.0000',
      plan_covers: '60.0000',
      patient_pays: '0.0000',
      reason: 'covered in full up to age 18 (the patient is 9)',
    },
  ],
  retail: '664.0000',
  plan_covers: '477.8000',
  patient_pays: '186.2000',
  not_estimable: [],
  materials_source: null,
  notes: [],
};
