import type { BenefitFlag, BenefitItem, FlagEntry, MaterialsList, Plan } from '@/lib/benefits';

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

interface PlanDates {
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
  /** Cheat code `no_materials`: the plan states no price list. */
  noMaterials?: boolean;
}

/**
 * The price list of the plan (docs/api.md, The counter), in the tree's figures where the tree
 * states them: the frame allowance with 20 % off the overage, lens copayments by type,
 * polycarbonate free for children, the options' copayments, contact lenses' allowances and
 * fittings, contact lenses in lieu of glasses. Premium progressives come in tiers.
 */
function materialsOf(variant: PlanVariant): MaterialsList {
  const lens = { copayment: variant.lensCopay };
  return {
    network: 'inn',
    frame: { allowance: variant.framesInn, discount_percent: '20', code: 'V2020' },
    lenses: {
      single_vision: lens,
      lined_bifocal: lens,
      lined_trifocal: lens,
      progressive_standard: { copayment: '55' },
      progressive_premium: {
        tiers: {
          '1': { copayment: '95' },
          '2': { copayment: '110' },
          '3': { copayment: '135' },
          '4': { copayment: '185' },
        },
      },
    },
    lens_options: {
      anti_reflective_standard: { copayment: '41', code: 'V2750' },
      anti_reflective_premium: { copayment: '58', code: 'V2750' },
      polycarbonate: { copayment: '31', max_age: 18, code: 'V2784' },
      photochromic: { copayment: '70', code: 'V2744' },
    },
    contact_lenses: {
      elective: { allowance: variant.contactsInn },
      medically_necessary: { copayment: '0' },
      fitting_standard: { copayment: '0' },
      fitting_premium: { discount_percent: '10', discount_on: 'retail' },
    },
    in_lieu_of: [
      ['contact_lenses', 'frame'],
      ['contact_lenses', 'lenses'],
    ],
  };
}

/** An entry of a flag-based list: in network, out of network, or on both. */
const entry =
  (flags: BenefitFlag[]) =>
  <T>(value: T, comment?: string): FlagEntry<T> => ({
    ...(flags.length > 0 ? { flags } : {}),
    value,
    ...(comment ? { comment } : {}),
  });
const inn = entry(['inn']);
const oon = entry(['oon']);
const any = entry([]);

export function buildPlan(variant: PlanVariant, dates: PlanDates, shape: PlanShape): Plan {
  const r = dates.refresh;
  const full = shape.detail === 'full';
  const note = (text: string) => (full ? { comment: text } : {});
  const item = (code: string, rest: Partial<BenefitItem>): BenefitItem => ({
    benefit_code: code,
    refresh_date: r,
    ...rest,
  });

  const lensOptions = (prefix: string): BenefitItem[] => [
    item(`${prefix}.polycarbonate`, {
      flags: ['requires-parent-use'],
      copayment: [inn('0', 'covered in full for dependent children'), inn('31')],
      ...note('Impact-resistant lenses; only with a covered pair of lenses.'),
    }),
    item(`${prefix}.anti_reflective`, {
      flags: ['requires-parent-use'],
      copayment: [inn('41')],
      allowance: [oon('0', 'not covered out of network')],
      items: full
        ? [
            item(`${prefix}.anti_reflective.standard`, {
              flags: ['exclusive-use'],
              copayment: [inn('41')],
            }),
            item(`${prefix}.anti_reflective.premium`, {
              flags: ['exclusive-use'],
              copayment: [inn('58')],
              margin_limit: [inn('85')],
            }),
          ]
        : undefined,
    }),
    item(`${prefix}.photochromic`, {
      flags: ['requires-parent-use'],
      copayment: [inn('70')],
      discount: [oon('0.1', '10% off retail out of network')],
    }),
  ];

  const lensType = (
    code: string,
    copay: string,
    oonAllowance: string,
    extra: Partial<BenefitItem> = {},
  ): BenefitItem =>
    item(`materials.spectacle_lenses.${code}`, {
      flags: ['exclusive-use'],
      copayment: [inn(copay)],
      allowance: [oon(oonAllowance)],
      quantity: [any(1, 'one pair per benefit period')],
      quantity_accepted: [any(0)],
      items: lensOptions(`materials.spectacle_lenses.${code}.options`),
      ...extra,
    });

  const items: BenefitItem[] = [
    item('exam', {
      ...note('Comprehensive eye examination, once every 12 months.'),
      copayment: [inn(variant.examCopay)],
      allowance: [oon(variant.examOon, 'reimbursed up to this amount')],
      quantity: [any(1, 'once every 12 months')],
      quantity_accepted: [any(0)],
      items: [
        item('exam.routine', {
          flags: ['exclusive-use'],
          items: [
            item('exam.routine.dilation', {
              flags: ['required'],
              copayment: [inn('0')],
              ...note('Dilation is part of the routine exam.'),
            }),
            item('exam.routine.retinal_imaging', {
              flags: ['requires-parent-use'],
              copayment: [inn('39', 'maximum member cost')],
              allowance: [oon('0')],
            }),
          ],
        }),
        item('exam.medical', {
          flags: ['exclusive-use'],
          coinsurance: [inn('20'), oon('40')],
          is_authorization_required: [any(true, 'pre-authorisation needed for medical eye care')],
        }),
        item('exam.contact_lens_fitting', {
          flags: ['requires-parent-use'],
          items: [
            item('exam.contact_lens_fitting.standard', {
              flags: ['exclusive-use'],
              copayment: [inn('0')],
              allowance: [oon('40')],
            }),
            item('exam.contact_lens_fitting.premium', {
              flags: ['exclusive-use'],
              discount: [inn('0.1', '10% off retail')],
              margin_limit: [inn('60', 'member pays at most this amount')],
            }),
          ],
        }),
      ],
    }),
    item('materials', {
      ...note('Frames, spectacle lenses and contact lenses.'),
      items: [
        item('materials.frames', {
          allowance: [inn(variant.framesInn), oon(variant.framesOon)],
          allowance_accepted: [inn('0'), oon('0')],
          allowance_reserved: [inn('0'), oon('0')],
          discount: [inn('0.2', '20% off the amount over the allowance')],
          quantity: [any(1, 'one frame every 24 months')],
          quantity_accepted: [any(0)],
          quantity_reserved: [any(0)],
        }),
        item('materials.spectacle_lenses', {
          items: [
            lensType('single_vision', variant.lensCopay, '30'),
            lensType('bifocal', variant.lensCopay, '50'),
            lensType('trifocal', variant.lensCopay, '65'),
            lensType('progressive', '55', '50', {
              margin_limit: [inn('120', 'standard progressive cap')],
            }),
          ],
        }),
        item('materials.contact_lenses', {
          ...note('Contact lenses are instead of spectacle lenses and frames.'),
          items: [
            item('materials.contact_lenses.elective', {
              flags: ['exclusive-use'],
              allowance: [inn(variant.contactsInn), oon(variant.contactsOon)],
              allowance_accepted: [inn('0'), oon('0')],
              allowance_reserved: [inn('0'), oon('0')],
            }),
            item('materials.contact_lenses.medically_necessary', {
              flags: ['exclusive-use'],
              allowance: [inn('600', 'covered in full'), oon('210')],
              allowance_accepted: [inn('0'), oon('0')],
              is_authorization_required: [any(true)],
            }),
          ],
        }),
        item('materials.package', {
          flags: ['inn'],
          comment: 'Frame and lenses bought together from the package collection.',
          copayment: [inn('25')],
          quantity: [any(1)],
          quantity_accepted: [any(0)],
          items: [
            item('materials.package.frame', {
              flags: ['required'],
              margin_limit: [inn('130', 'package frames up to this retail price')],
            }),
            item('materials.package.lenses', {
              flags: ['required'],
              copayment: [inn('0')],
              items: [
                item('materials.package.lenses.coatings', {
                  flags: ['requires-parent-use'],
                  copayment: [inn('0', 'scratch and UV coatings included')],
                }),
              ],
            }),
          ],
        }),
      ],
    }),
    item('lasik', {
      end_date: dates.end,
      flags: ['inn'],
      discount: [inn('0.15', '15% off the usual price at participating centres')],
    }),
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
  // The list is in network: none without in-network benefits.
  if (!shape.noMaterials && !shape.noInn)
    plan = { ...plan, materials: materialsOf(variant), materials_source: 'payer' };

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
