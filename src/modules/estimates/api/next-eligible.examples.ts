/**
 * The worked example of the OpenAPI document (docs/api.md, Next eligible dates): frames shared
 * with contact lenses, a twice-a-year contact-lens rule, a calendar-year exam with the payer's own
 * date, which wins. next-eligible.examples.spec.ts checks the computation gives exactly this answer.
 */

export const EXAMPLE_NEXT_ELIGIBLE_REQUEST = {
  as_of: '2026-01-15',
  rules: [
    {
      benefit_code: 'materials.frames',
      frequency: {
        count: 1,
        period: { kind: 'rolling', months: 24 },
        shared_with: ['materials.contact_lenses'],
      },
    },
    {
      benefit_code: 'materials.contact_lenses',
      frequency: { count: 2, period: { kind: 'rolling', months: 12 } },
    },
    {
      benefit_code: 'exam.routine',
      frequency: { count: 1, period: { kind: 'calendar_year' } },
      payer_next_eligible_date: '2026-03-10',
    },
  ],
  history: [
    { benefit_code: 'materials.contact_lenses', date: '2025-03-10', source: 'claim' },
    { benefit_code: 'materials.contact_lenses', date: '2025-03-10', source: 'remittance' },
    { benefit_code: 'exam.routine', date: '2025-03-10', source: 'payer' },
  ],
  plan: { begin_date: '2025-01-01', end_date: '2026-12-31' },
};

export const EXAMPLE_NEXT_ELIGIBLE_RESPONSE = {
  result: [
    {
      benefit_code: 'materials.frames',
      next_eligible: {
        date: '2027-03-10',
        basis: 'computed',
        explanation: [
          'Frames: once every 24 months, counted from the last service.',
          'Services of contact lenses count against it too (shared benefits).',
          'The last service that counts was on 2025-03-10 (contact lenses); a new one is allowed ' +
            'from 2027-03-10, 24 months after it.',
          '2027-03-10 is after the plan ends on 2026-12-31: not under this plan.',
        ],
      },
      last_service: null,
    },
    {
      benefit_code: 'materials.contact_lenses',
      next_eligible: {
        date: '2026-01-15',
        basis: 'computed',
        explanation: [
          'Contact lenses: twice in any 12 months.',
          'Services of frames count against it too (shared benefits).',
          '1 service that counts is on record, fewer than the 2 allowed, so another is allowed ' +
            'from the last one, on 2025-03-10.',
          'It has been available since 2025-03-10, so it is available on 2026-01-15.',
        ],
      },
      last_service: { date: '2025-03-10', source: 'remittance' },
    },
    {
      benefit_code: 'exam.routine',
      next_eligible: {
        date: '2026-03-10',
        basis: 'payer_stated',
        explanation: [
          'The payer states it is available from 2026-03-10.',
          "The frequency and the services on record give 2026-01-15 instead; the payer's date, " +
            '2026-03-10, is used.',
          'Routine exam: once per calendar year; the count starts again each 1 January.',
          'The last service that counts was on 2025-03-10; a new one is allowed from 2026-01-01, ' +
            'when the next calendar year begins.',
          'It has been available since 2026-01-01, so it is available on 2026-01-15.',
        ],
      },
      last_service: { date: '2025-03-10', source: 'payer' },
    },
  ],
};
