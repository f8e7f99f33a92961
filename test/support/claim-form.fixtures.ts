import { CLAIMS_MAILING_ADDRESSES, mailingLines } from '@/modules/insurers';
import type { ClaimFormInput } from '@/modules/claims/domain/claim-form.pdf';
import type { ClaimResponse } from '@/modules/claims/api/dto/claim.response';

/** Fixtures of the claim form's and the patient e-mail's unit specs: a paper claim, three lines. */

const person = {
  dob: '1986-04-12',
  sex: 'female',
  ssn_last_four: null,
  email: null,
  phone: '512-555-0142',
};
export const claim: ClaimResponse = {
  code: 'CLM8D3K6TQW',
  status: 'ready_to_mail',
  status_history: [],
  submission: null,
  remittance: null,
  patient: {
    ...person,
    first_name: 'Łucja',
    last_name: 'Nguyễn—Smith',
    type: 'child',
    member_id: null,
    address: {
      line1: '274 Cedar Lane',
      line2: 'Apt 3',
      city: 'Austin',
      state: 'TX',
      zipcode: '78704-1234',
      recipient: null,
    },
  },
  primary_member: {
    ...person,
    first_name: 'Maria',
    last_name: 'Gonzalez',
    type: 'self',
    sex: 'female',
    member_id: 'VSP104882211',
    insurer_code: 'insurer:vision:vsp',
    address: {
      line1: '1208 Congress Avenue, Building C',
      line2: 'Suite 1400 (rear entrance)',
      city: 'Round Rock',
      state: 'TX',
      zipcode: '78681',
      recipient: null,
    },
  },
  services: [
    {
      codes: ['92014'],
      date: '2026-11-14',
      quantity: 1,
      cost: '145.0000',
      diagnosis_codes: ['H52.13'],
    },
    {
      codes: ['V2100', 'RT', 'LT', 'V2750'],
      date: '2026-11-14',
      quantity: 2,
      cost: '12.2200',
      diagnosis_codes: ['H52.13', 'H52.4'],
    },
    { codes: ['V2020'], date: '2026-11-15', quantity: 1, cost: '44.2100', diagnosis_codes: [] },
  ],
  paid_amount: '213.6500',
  total_cost: '213.6500',
  accept_assignment: false,
  metadata: null,
  rendering_provider: null,
  location_code: 'LOC7K2M9QXA',
  location: { status: 'enabled', title: 'Downtown Eye Care', code: 'LOC7K2M9QXA' },
  created_at: '2026-11-16T10:00:00.000+00:00',
  warnings: [],
};
export const vsp = mailingLines(CLAIMS_MAILING_ADDRESSES['insurer:vision:vsp']);
export const input: ClaimFormInput = {
  claim,
  insurerName: 'VSP Vision Care',
  payerId: null,
  provider: {
    npi: '1234567893',
    organizationName: 'Bright Eyes Optometry PLLC',
    taxId: '741234567',
    address: {
      line1: '500 W 2nd St',
      line2: 'Floor 2',
      city: 'Austin',
      state: 'TX',
      zipcode: '78701-1234',
    },
    taxonomyCode: '152W00000X',
    renderingProvider: null,
    locationCode: 'LOC7K2M9QXA',
  },
  facility: {
    name: 'Downtown Eye Care',
    address: {
      line1: '901 E 6th St',
      line2: null,
      city: 'Austin',
      state: 'TX',
      zipcode: '78702-4410',
    },
  },
  mailTo: vsp,
};
