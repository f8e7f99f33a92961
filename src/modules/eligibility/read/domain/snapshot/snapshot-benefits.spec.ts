import { SNAPSHOT_PLAN as PLAN } from '../../../../../../test/support/snapshot-plan';
import { benefitTable, frequencyWords, type SnapshotPlanJson } from './snapshot-benefits';

const cellsOf = (plan: SnapshotPlanJson) => benefitTable(plan).rows.map((r) => r.cells);

describe('the snapshot benefit table (docs/api.md, Eligibility)', () => {
  it('prints each benefit with copay and allowance per network, its frequency, last service and next eligible date with its basis', () => {
    expect(cellsOf(PLAN)).toEqual([
      [
        'Eye exam',
        'In: $10.00',
        'Out: $45.00',
        'Once per calendar year',
        '2026-02-10\nper a claim filed',
        '2027-01-01\ncomputed',
      ],
      ['Materials', '—', '—', '—', '—', '—'],
      [
        'Frames',
        '—',
        '$150.00',
        'Once every 24 months; shared with contact lenses',
        '—',
        '2027-08-31\nstated by the payer',
      ],
      ['Contact lenses', '—', 'Out: $120.00', '—', '—', 'Not known\nunknown'],
      ['Spectacle lenses', '—', '—', '1 (one pair per benefit period)', '2025-06-12', '2026-06-12'],
    ]);
    expect(benefitTable(PLAN).rows.map((r) => r.indent)).toEqual([0, 0, 8, 8, 8]);
  });

  it('explains the dates in the words of the computation', () => {
    expect(benefitTable(PLAN).explanations).toEqual([
      'Eye exam: once per calendar year; the count starts again each 1 January.',
    ]);
  });

  it.each([
    [{ count: 2, period: { kind: 'rolling', months: 12 } }, 'Twice every 12 months'],
    [{ count: 1, period: { kind: 'plan_year', months: null } }, 'Once per plan year'],
    [{ count: 3, period: { kind: 'calendar_year', months: 24 } }, '3 times every 2 calendar years'],
    [{ count: 1, period: { kind: 'rolling', months: 1 } }, 'Once every 1 month'],
  ] as const)('says the frequency %j as %s', (f, words) => {
    expect(frequencyWords(f)).toBe(words);
  });
});
