/**
 * Three published vision plan summaries, transcribed into price lists (docs/api.md, The
 * counter), each with an order of a frame, progressive lenses and two options, an order of
 * contact lenses with a premium fitting, and what the summary says each line costs the patient.
 * Only the figures the summary states are transcribed: a line it does not price (a frame
 * allowance it does not give, a price stated as a range) is not estimable, never guessed.
 */

export interface QuotedLine {
  item: string;
  /** What the patient pays; null: not estimable. */
  patient_pays: string | null;
  /** Words the line's reason carries. */
  reason: RegExp;
}

export interface PlanSummary {
  name: string;
  /** Where the summary is published. */
  source: string;
  materials: object;
  patient_age: number;
  glasses: { order: object; lines: QuotedLine[] };
  contacts: { order: object; lines: QuotedLine[] };
}

/** A frame, premium or standard progressives and two options: what a dispensing table sells. */
const glasses = (lenses: object, options: [string, string][]) => ({
  frame: { retail: '160.00' },
  lenses,
  lens_options: options.map(([option, retail]) => ({ option, retail })),
});

const contacts = (fittingRetail: string) => ({
  contact_lenses: { kind: 'elective', retail: '150.00' },
  fitting: { kind: 'premium', retail: fittingRetail },
});

const NOT_STATED = /^the price list states nothing for /;

export const PLAN_SUMMARIES: PlanSummary[] = [
  {
    name: 'EyeMed, an employer plan (Baylor Scott & White Health)',
    source: 'https://www.bswhbenefits.com/vision',
    // "Standard progressive $65; premium $95–$185 by tier" (tiers 1 and 4; the summary names no
    // figure between them); polycarbonate covered under 19; contact lens fit and two follow-ups:
    // standard $25, premium $25 copay, 10 % off retail, then a $55 allowance.
    materials: {
      network: 'inn',
      lenses: {
        progressive_standard: { copayment: '65.00' },
        progressive_premium: {
          tiers: { '1': { copayment: '95.00' }, '4': { copayment: '185.00' } },
        },
      },
      lens_options: { polycarbonate: { max_age: 18 } },
      contact_lenses: {
        fitting_standard: { copayment: '25.00' },
        fitting_premium: {
          copayment: '25.00',
          discount_percent: '10',
          discount_on: 'retail',
          allowance: '55.00',
        },
      },
    },
    patient_age: 12,
    glasses: {
      order: glasses({ type: 'progressive_premium', tier: 1, retail: '300.00' }, [
        ['polycarbonate', '60.00'],
        ['anti_reflective_standard', '95.00'],
      ]),
      lines: [
        { item: 'frame', patient_pays: null, reason: NOT_STATED },
        { item: 'lenses', patient_pays: '95.0000', reason: /copayment \$95\.00/ },
        {
          item: 'polycarbonate',
          patient_pays: '0.0000',
          reason: /up to age 18 \(the patient is 12\)/,
        },
        { item: 'anti_reflective_standard', patient_pays: null, reason: NOT_STATED },
      ],
    },
    contacts: {
      // $25 + ($120 less 10 % = $108, less the $55 allowance: $53).
      order: contacts('120.00'),
      lines: [
        { item: 'contact_lenses', patient_pays: null, reason: NOT_STATED },
        { item: 'fitting', patient_pays: '78.0000', reason: /copayment \$25\.00/ },
      ],
    },
  },
  {
    name: 'Base PPO vision plan (CSL)',
    source: 'https://www.cslbenefits.com/cslp/health/vision',
    // UV $15, tint $15, scratch-resistant $15, standard anti-reflective $45, standard
    // polycarbonate $15 for adults and $0 for children; contact lens fit and evaluation $10.
    materials: {
      network: 'inn',
      lens_options: {
        uv: { copayment: '15.00' },
        tint: { copayment: '15.00' },
        scratch_coating: { copayment: '15.00' },
        anti_reflective_standard: { copayment: '45.00' },
        polycarbonate: { copayment: '15.00', max_age: 18 },
      },
      contact_lenses: {
        fitting_standard: { copayment: '10.00' },
        fitting_premium: { copayment: '10.00' },
      },
    },
    patient_age: 41,
    glasses: {
      order: glasses({ type: 'progressive_standard', retail: '250.00' }, [
        ['anti_reflective_standard', '95.00'],
        ['polycarbonate', '60.00'],
      ]),
      lines: [
        { item: 'frame', patient_pays: null, reason: NOT_STATED },
        { item: 'lenses', patient_pays: null, reason: NOT_STATED },
        { item: 'anti_reflective_standard', patient_pays: '45.0000', reason: /copayment \$45\.00/ },
        { item: 'polycarbonate', patient_pays: '15.0000', reason: /copayment \$15\.00/ },
      ],
    },
    contacts: {
      order: contacts('90.00'),
      lines: [
        { item: 'contact_lenses', patient_pays: null, reason: NOT_STATED },
        { item: 'fitting', patient_pays: '10.0000', reason: /copayment \$10\.00/ },
      ],
    },
  },
  {
    name: 'VSP Choice (Board of Pensions of the Presbyterian Church)',
    source:
      'https://www.pensions.org/what-we-offer/benefits-guidance/vision-eyewear-coverage/costs',
    // Scratch-resistant coating $0; UV $10–16 by lens type (a range: not one price); the contact
    // lens exam (fitting and evaluation) $0.
    materials: {
      network: 'inn',
      lens_options: { scratch_coating: { copayment: '0.00' } },
      contact_lenses: {
        fitting_standard: { copayment: '0.00' },
        fitting_premium: { copayment: '0.00' },
      },
    },
    patient_age: 35,
    glasses: {
      order: glasses({ type: 'progressive_premium', tier: 2, retail: '340.00' }, [
        ['scratch_coating', '40.00'],
        ['uv', '25.00'],
      ]),
      lines: [
        { item: 'frame', patient_pays: null, reason: NOT_STATED },
        { item: 'lenses', patient_pays: null, reason: NOT_STATED },
        { item: 'scratch_coating', patient_pays: '0.0000', reason: /copayment \$0\.00/ },
        { item: 'uv', patient_pays: null, reason: NOT_STATED },
      ],
    },
    contacts: {
      order: contacts('85.00'),
      lines: [
        { item: 'contact_lenses', patient_pays: null, reason: NOT_STATED },
        { item: 'fitting', patient_pays: '0.0000', reason: /copayment \$0\.00/ },
      ],
    },
  },
];
