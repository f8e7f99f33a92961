import type { BenefitItem, FlagEntry, Plan } from '@/lib/benefits';
import type { EstimateServiceInput } from '@/modules/estimates/domain/estimate.types';

/** Fixtures of the estimate unit specs. */

export const R = '2027-01-01';
const inn = <T>(value: T, comment?: string): FlagEntry<T> => ({
  flags: ['inn'],
  value,
  ...(comment ? { comment } : {}),
});
export const oon = <T>(value: T, comment?: string): FlagEntry<T> => ({
  flags: ['oon'],
  value,
  ...(comment ? { comment } : {}),
});
const item = (code: string, rest: Partial<BenefitItem> = {}): BenefitItem => ({
  benefit_code: code,
  refresh_date: R,
  ...rest,
});

/** A plan of the 2026 calendar year, refreshed on R, with the given items. */
export function planOf(insurerState: Plan['insurer_state'], items: BenefitItem[]): Plan {
  return {
    insurer_state: insurerState,
    refresh_date: R,
    begin_date: '2026-01-01',
    end_date: '2026-12-31',
    flags: [],
    items,
  };
}

/** A hand-made plan for the unit specs: every expected figure is worked by hand from it. */
export function plan(overrides: { frames?: Partial<BenefitItem> } = {}): Plan {
  return planOf('oon', [
    item('exam', {
      copayment: [inn('10'), oon('10', 'per visit')],
      allowance: [oon('45', 'reimbursed up to this amount')],
      quantity: [{ value: 1 }],
      quantity_accepted: [{ value: 0 }],
      items: [item('exam.routine'), item('exam.medical', { coinsurance: [oon('40')] })],
    }),
    item('materials', {
      items: [
        item('materials.frames', {
          allowance: [inn('150'), oon('70')],
          copayment: [inn('15')],
          quantity: [{ value: 1 }],
          quantity_accepted: [{ value: 0 }],
          ...overrides.frames,
        }),
        item('materials.spectacle_lenses', {
          items: [item('materials.spectacle_lenses.bifocal', { allowance: [oon('50')] })],
        }),
        item('materials.contact_lenses', {
          items: [
            item('materials.contact_lenses.elective', {
              allowance: [inn('130'), oon('105')],
            }),
          ],
        }),
        item('materials.package', {
          copayment: [oon('20'), inn('25')],
          items: [
            item('materials.package.frame', { allowance: [oon('70')] }),
            item('materials.package.lenses', {
              allowance: [oon('55')],
              items: [
                // Defines its allowance list, but only in network: nothing out of network.
                item('materials.package.lenses.coatings', { allowance: [inn('10')] }),
              ],
            }),
          ],
        }),
      ],
    }),
  ]);
}

export const line = (
  codes: string[],
  cost: string,
  extra: Partial<EstimateServiceInput> = {},
): EstimateServiceInput => ({ codes, cost, quantity: 1, ...extra });
