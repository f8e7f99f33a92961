import type { EnvelopeSettings } from '@/lib/x12/x12.writer';
import type { ProfessionalClaim, X837Service } from '@/lib/x12/x837.parts';

/**
 * The claims every 837P check runs on (the in-project structure check and the independent
 * validator): the Claims section's (docs/api.md) variants. Test fixtures, shared by the writer's specs.
 */

export const VARIANT_ENVELOPE: EnvelopeSettings = {
  senderId: 'VISIONELIG',
  receiverId: 'CLEARINGHOUSE',
  usage: 'T',
  controlNumber: 5150,
  createdAt: new Date('2026-11-16T09:05:00Z'),
};

const maria = {
  firstName: 'Maria',
  lastName: 'Gonzalez',
  dob: '1986-04-12',
  sex: 'female',
  address: {
    line1: '1208 Congress Ave',
    line2: 'Apt 4B',
    city: 'Austin',
    state: 'TX',
    zipcode: '78701',
  },
};

const exam = (over: Partial<X837Service> = {}): X837Service => ({
  codes: ['92014'],
  date: '2026-11-14',
  quantity: 1,
  cost: '145.0000',
  diagnosisCodes: ['H52.13'],
  ...over,
});

/** Subscriber = patient: an exam, two lenses with a modifier, a frame (total 1401.25). */
export const variantClaim = (over: Partial<ProfessionalClaim> = {}): ProfessionalClaim => ({
  submitter: {
    id: 'VISIONELIG',
    name: 'Clear Sight Optometry',
    contactEmail: 'claims@clearsight.test',
  },
  receiver: { id: 'CLEARINGHOUSE', name: 'Clearinghouse' },
  billingProvider: {
    npi: '1234567893',
    organizationName: 'Clear Sight Optometry',
    taxId: '741234567',
    address: { line1: '500 W 2nd St', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
    taxonomyCode: '152W00000X',
  },
  renderingProvider: {
    npi: '1245319599',
    firstName: 'Ana',
    lastName: 'Ruiz',
    taxonomyCode: '152W00000X',
  },
  subscriber: { ...maria, memberId: 'VSP104882211' },
  patient: null,
  payer: { id: 'VSP01', name: 'VSP Vision Care' },
  claimCode: 'CLM8D3K6TQW',
  acceptAssignment: false,
  paidAmount: '0.0000',
  services: [
    exam(),
    {
      codes: ['V2100', 'RT'],
      date: '2026-11-14',
      quantity: 2,
      cost: '90.5000',
      diagnosisCodes: ['H52.13', 'H52.4'],
    },
    { codes: ['V2020'], date: '2026-11-15', quantity: 1, cost: '1075.2500', diagnosisCodes: [] },
  ],
  ...over,
});

const lucia = {
  firstName: 'Lucia',
  lastName: 'Gonzalez',
  dob: '2016-02-03',
  sex: 'female',
  address: maria.address,
};

const TWELVE_DIAGNOSES = [
  'H52.13',
  'H52.4',
  'H52.221',
  'H52.222',
  'H10.13',
  'H04.123',
  'H11.31',
  'H57.11',
  'H53.8',
  'H40.013',
  'H25.13',
  'E11.9',
];

/** the Claims section's (docs/api.md) variants, each a claim the 837P must carry without an error. */
export const X837_VARIANTS: Readonly<Record<string, ProfessionalClaim>> = {
  'subscriber is the patient': variantClaim(),
  'dependent patient': variantClaim({
    // The dependent's own address is unknown: 2010CA takes the primary member's.
    subscriber: { ...maria, address: null, sex: null, memberId: 'VSP104882211' },
    patient: { ...lucia, relationship: '19' },
  }),
  'dependent with their own member id (the subscriber)': variantClaim({
    subscriber: { ...lucia, memberId: 'VSP55501', groupNumber: 'GRP-1' },
  }),
  '12 diagnoses': variantClaim({
    services: [
      exam({ diagnosisCodes: TWELVE_DIAGNOSES.slice(0, 4) }),
      exam({ codes: ['92015'], cost: '40', diagnosisCodes: TWELVE_DIAGNOSES.slice(4, 8) }),
      exam({ codes: ['92310'], cost: '95', diagnosisCodes: TWELVE_DIAGNOSES.slice(8, 12) }),
    ],
  }),
  '6 lines with modifiers and diagnosis pointers': variantClaim({
    services: [
      exam({ diagnosisCodes: ['H52.13', 'H52.4'] }),
      exam({ codes: ['92015', 'GY'], cost: '40', diagnosisCodes: ['H52.4'] }),
      exam({ codes: ['V2100', 'RT', 'LT'], cost: '90.5', quantity: 2 }),
      exam({ codes: ['V2781', 'RT'], cost: '210', diagnosisCodes: ['H52.4', 'H52.13'] }),
      exam({ codes: ['V2781', 'LT'], cost: '210', diagnosisCodes: ['H52.4'] }),
      exam({ codes: ['V2020', 'NU', 'GA', 'RT', 'LT'], cost: '1075.25', date: '2026-11-15' }),
    ],
  }),
  'rendering provider per claim': variantClaim({
    renderingProvider: {
      npi: '1003000126',
      firstName: 'Owen',
      lastName: "O'Brien",
      taxonomyCode: '152WC0802X',
    },
  }),
  'paid amount zero': variantClaim({ paidAmount: '0' }),
  'paid amount above zero': variantClaim({ paidAmount: '1200.7500', acceptAssignment: true }),
  'transliterated names': variantClaim({
    subscriber: {
      firstName: 'José Ángel',
      lastName: 'Núñez-Øster',
      dob: '1979-09-30',
      sex: 'male',
      memberId: 'EM55501234',
      address: {
        line1: 'Calle Señora Höß 12',
        line2: 'Piso 3º',
        city: 'San José',
        state: 'ca',
        zipcode: '95112-4401',
      },
    },
    billingProvider: {
      npi: '1234567893',
      organizationName: 'Óptica Peña & Søn',
      taxId: '741234567',
      address: { line1: '500 Ñandú Blvd', city: 'Española', state: 'NM', zipcode: '87532-2611' },
      taxonomyCode: '152W00000X',
    },
  }),
};
