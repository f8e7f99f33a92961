import type { BenefitItem, FlagEntry, Plan } from '@/lib/benefits';

/**
 * The sandbox's vision plans: realistic figures for exam, contact-lens fitting, frames, spectacle
 * lenses by type with lens options, contact lenses, a frame+lens package with capped sub-items and
 * a LASIK discount, with in- and out-of-network values. Every flag and every list kind is used.
 */

import { markUsed, removeNetwork } from './demo-plan-cheats';
import { withFrequencies } from './demo-plan-frequencies';
import type { PlanVariant } from './demo-plan-variants';

export { PLAN_VARIANTS } from './demo-plan-variants';
export type { PlanVariant } from './demo-plan-variants';

export interface PlanDates {
  begin: string;
  end: string;
  refresh: string;
}

export interface PlanShape {
  /** Full detail adds the lens-option tiers and item comments the summary leaves out. */
  detail: 'summary' | 'full';
  markUsed: boolean;
  examUsed: boolean;
  noOon: boolean;
  noInn: boolean;
}

const inn = <T>(value: T, comment?: string): FlagEntry<T> => ({
  flags: ['inn'],
  value,
  ...(comment ? { comment } : {}),
});
const oon = <T>(value: T, comment?: string): FlagEntry<T> => ({
  flags: ['oon'],
  value,
  ...(comment ? { comment } : {}),
});
const any = <T>(value: T, comment?: string): FlagEntry<T> => ({
  value,
  ...(comment ? { comment } : {}),
});

export function buildPlan(variant: PlanVariant, dates: PlanDates, shape: PlanShape): Plan {
  const r = dates.refresh;
  const full = shape.detail === 'full';
  const note = (text: string) => (full ? { comment: text } : {});

  const lensOptions = (prefix: string): BenefitItem[] => [
    {
      benefit_code: `${prefix}.polycarbonate`,
      refresh_date: r,
      flags: ['requires-parent-use'],
      copayment: [inn('0', 'covered in full for dependent children'), inn('31')],
      ...note('Impact-resistant lenses; only with a covered pair of lenses.'),
    },
    {
      benefit_code: `${prefix}.anti_reflective`,
      refresh_date: r,
      flags: ['requires-parent-use'],
      copayment: [inn('41')],
      allowance: [oon('0', 'not covered out of network')],
      items: full
        ? [
            {
              benefit_code: `${prefix}.anti_reflective.standard`,
              refresh_date: r,
              flags: ['exclusive-use'],
              copayment: [inn('41')],
            },
            {
              benefit_code: `${prefix}.anti_reflective.premium`,
              refresh_date: r,
              flags: ['exclusive-use'],
              copayment: [inn('58')],
              margin_limit: [inn('85')],
            },
          ]
        : undefined,
    },
    {
      benefit_code: `${prefix}.photochromic`,
      refresh_date: r,
      flags: ['requires-parent-use'],
      copayment: [inn('70')],
      discount: [oon('0.1', '10% off retail out of network')],
    },
  ];

  const lensType = (
    code: string,
    copay: string,
    oonAllowance: string,
    extra: Partial<BenefitItem> = {},
  ): BenefitItem => ({
    benefit_code: `materials.spectacle_lenses.${code}`,
    refresh_date: r,
    flags: ['exclusive-use'],
    copayment: [inn(copay)],
    allowance: [oon(oonAllowance)],
    quantity: [any(1, 'one pair per benefit period')],
    quantity_accepted: [any(0)],
    items: lensOptions(`materials.spectacle_lenses.${code}.options`),
    ...extra,
  });

  const items: BenefitItem[] = [
    {
      benefit_code: 'exam',
      refresh_date: r,
      ...note('Comprehensive eye examination, once every 12 months.'),
      copayment: [inn(variant.examCopay)],
      allowance: [oon(variant.examOon, 'reimbursed up to this amount')],
      quantity: [any(1, 'once every 12 months')],
      quantity_accepted: [any(0)],
      items: [
        {
          benefit_code: 'exam.routine',
          refresh_date: r,
          flags: ['exclusive-use'],
          items: [
            {
              benefit_code: 'exam.routine.dilation',
              refresh_date: r,
              flags: ['required'],
              copayment: [inn('0')],
              ...note('Dilation is part of the routine exam.'),
            },
            {
              benefit_code: 'exam.routine.retinal_imaging',
              refresh_date: r,
              flags: ['requires-parent-use'],
              copayment: [inn('39', 'maximum member cost')],
              allowance: [oon('0')],
            },
          ],
        },
        {
          benefit_code: 'exam.medical',
          refresh_date: r,
          flags: ['exclusive-use'],
          coinsurance: [inn('20'), oon('40')],
          is_authorization_required: [any(true, 'pre-authorisation needed for medical eye care')],
        },
        {
          benefit_code: 'exam.contact_lens_fitting',
          refresh_date: r,
          flags: ['requires-parent-use'],
          items: [
            {
              benefit_code: 'exam.contact_lens_fitting.standard',
              refresh_date: r,
              flags: ['exclusive-use'],
              copayment: [inn('0')],
              allowance: [oon('40')],
            },
            {
              benefit_code: 'exam.contact_lens_fitting.premium',
              refresh_date: r,
              flags: ['exclusive-use'],
              discount: [inn('0.1', '10% off retail')],
              margin_limit: [inn('60', 'member pays at most this amount')],
            },
          ],
        },
      ],
    },
    {
      benefit_code: 'materials',
      refresh_date: r,
      ...note('Frames, spectacle lenses and contact lenses.'),
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: r,
          allowance: [inn(variant.framesInn), oon(variant.framesOon)],
          allowance_accepted: [inn('0'), oon('0')],
          allowance_reserved: [inn('0'), oon('0')],
          discount: [inn('0.2', '20% off the amount over the allowance')],
          quantity: [any(1, 'one frame every 24 months')],
          quantity_accepted: [any(0)],
          quantity_reserved: [any(0)],
        },
        {
          benefit_code: 'materials.spectacle_lenses',
          refresh_date: r,
          items: [
            lensType('single_vision', variant.lensCopay, '30'),
            lensType('bifocal', variant.lensCopay, '50'),
            lensType('trifocal', variant.lensCopay, '65'),
            lensType('progressive', '55', '50', {
              margin_limit: [inn('120', 'standard progressive cap')],
            }),
          ],
        },
        {
          benefit_code: 'materials.contact_lenses',
          refresh_date: r,
          ...note('Contact lenses are instead of spectacle lenses and frames.'),
          items: [
            {
              benefit_code: 'materials.contact_lenses.elective',
              refresh_date: r,
              flags: ['exclusive-use'],
              allowance: [inn(variant.contactsInn), oon(variant.contactsOon)],
              allowance_accepted: [inn('0'), oon('0')],
              allowance_reserved: [inn('0'), oon('0')],
            },
            {
              benefit_code: 'materials.contact_lenses.medically_necessary',
              refresh_date: r,
              flags: ['exclusive-use'],
              allowance: [inn('600', 'covered in full'), oon('210')],
              allowance_accepted: [inn('0'), oon('0')],
              is_authorization_required: [any(true)],
            },
          ],
        },
        {
          benefit_code: 'materials.package',
          refresh_date: r,
          flags: ['inn'],
          comment: 'Frame and lenses bought together from the package collection.',
          copayment: [inn('25')],
          quantity: [any(1)],
          quantity_accepted: [any(0)],
          items: [
            {
              benefit_code: 'materials.package.frame',
              refresh_date: r,
              flags: ['required'],
              margin_limit: [inn('130', 'package frames up to this retail price')],
            },
            {
              benefit_code: 'materials.package.lenses',
              refresh_date: r,
              flags: ['required'],
              copayment: [inn('0')],
              items: [
                {
                  benefit_code: 'materials.package.lenses.coatings',
                  refresh_date: r,
                  flags: ['requires-parent-use'],
                  copayment: [inn('0', 'scratch and UV coatings included')],
                },
              ],
            },
          ],
        },
      ],
    },
    {
      benefit_code: 'lasik',
      refresh_date: r,
      end_date: dates.end,
      flags: ['inn'],
      discount: [inn('0.15', '15% off the usual price at participating centres')],
    },
  ];

  let plan: Plan = {
    insurer_state: shape.noOon ? 'inn' : 'oon',
    items: withFrequencies(items),
    refresh_date: dates.refresh,
    begin_date: dates.begin,
    end_date: dates.end,
    flags: ['lens-options-covered', 'additional-pairs-discount'],
    discount: [inn('0.4', '40% off additional complete pairs')],
    is_authorization_required: [any(false)],
  };

  const used = (i: BenefitItem) => markUsed(i, dates.begin);
  if (shape.markUsed) plan = { ...plan, items: plan.items.map(used) };
  else if (shape.examUsed)
    plan = { ...plan, items: plan.items.map((i) => (i.benefit_code === 'exam' ? used(i) : i)) };
  if (shape.noOon) plan = removeNetwork(plan, 'oon');
  if (shape.noInn) plan = removeNetwork(plan, 'inn');
  // With neither network left, the plan has no benefit items at all.
  if (shape.noOon && shape.noInn) plan = { ...plan, items: [] };
  return plan;
}
