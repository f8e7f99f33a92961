import type { SnapshotPlanJson } from '@/modules/eligibility/read/domain/snapshot/snapshot-benefits';

/** A plan whose items carry the objects of docs/api.md, Next eligible dates. */
export const SNAPSHOT_PLAN: SnapshotPlanJson = {
  insurer_state: 'oon',
  refresh_date: '2027-01-01',
  begin_date: '2026-01-01',
  end_date: '2026-12-31',
  flags: [],
  items: [
    {
      benefit_code: 'exam',
      refresh_date: '2027-01-01',
      copayment: [{ flags: ['inn'], value: '10.0000' }],
      allowance: [{ flags: ['oon'], value: '45.0000' }],
      frequency: { count: 1, period: { kind: 'calendar_year', months: 12 } },
      last_service: { date: '2026-02-10', source: 'claim' },
      last_service_date: '2026-02-10',
      next_eligible: {
        date: '2027-01-01',
        basis: 'computed',
        explanation: ['Eye exam: once per calendar year; the count starts again each 1 January.'],
      },
      next_eligible_date: '2027-01-01',
    },
    {
      benefit_code: 'materials',
      refresh_date: '2027-01-01',
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: '2027-01-01',
          allowance: [{ value: '150.0000' }],
          frequency: {
            count: 1,
            period: { kind: 'rolling', months: 24 },
            shared_with: ['materials.contact_lenses'],
          },
          next_eligible: { date: '2027-08-31', basis: 'payer_stated', explanation: [] },
          next_eligible_date: '2027-08-31',
        },
        {
          benefit_code: 'materials.contact_lenses',
          refresh_date: '2027-01-01',
          allowance: [{ flags: ['oon'], value: '120.0000' }],
          next_eligible: { date: null, basis: 'unknown', explanation: [] },
        },
        {
          benefit_code: 'materials.spectacle_lenses',
          refresh_date: '2027-01-01',
          quantity: [{ value: 1, comment: 'one pair per benefit period' }],
          last_service_date: '2025-06-12',
          next_eligible_date: '2026-06-12',
        },
      ],
    },
  ],
};
