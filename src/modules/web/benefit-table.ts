import { evaluatePlan, EffectiveBenefit, flatten } from '@/modules/benefits/benefit.evaluator';
import type { Plan } from '@/modules/benefits/benefit.types';

export interface BenefitRow {
  code: string;
  label: string;
  depth: number;
  flags: string[];
  used: boolean;
  inn: SideValues | null;
  oon: SideValues | null;
}

interface SideValues {
  values: EffectiveBenefit['values'];
  quantityLeft: number | null;
}

const LABELS: Record<string, string> = {
  exam: 'Eye exam',
  materials: 'Materials',
  lasik: 'LASIK',
  frames: 'Frames',
  spectacle_lenses: 'Spectacle lenses',
  contact_lenses: 'Contact lenses',
  contact_lens_fitting: 'Contact lens fitting',
  single_vision: 'Single vision',
  anti_reflective: 'Anti-reflective coating',
  medically_necessary: 'Medically necessary',
  retinal_imaging: 'Retinal imaging',
};

function label(code: string): string {
  const last = code.split('.').pop() ?? code;
  return LABELS[last] ?? last.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/**
 * One row per benefit for the web page's table: in- and out-of-network values side by side,
 * nesting depth for indentation, and whether the benefit is used up. Raw V2 plan JSON in (doubles
 * as four-decimal strings), evaluated with the benefits module's flag rules.
 */
export function benefitRows(plan: Plan): BenefitRow[] {
  const inn = flatten(evaluatePlan(plan, 'inn'));
  const oon = flatten(evaluatePlan(plan, 'oon'));
  return inn.map((i, index) => {
    const o = oon[index];
    const side = (b: EffectiveBenefit): SideValues | null =>
      b.applies ? { values: b.values, quantityLeft: quantityLeft(b) } : null;
    const innSide = side(i);
    const oonSide = side(o);
    return {
      code: i.benefit_code,
      label: label(i.benefit_code),
      depth: i.depth,
      flags: i.flags.filter((f) => f !== 'inn' && f !== 'oon'),
      used: (innSide ? i.used : true) && (oonSide ? o.used : true) && Boolean(innSide || oonSide),
      inn: innSide,
      oon: oonSide,
    };
  });
}

function quantityLeft(b: EffectiveBenefit): number | null {
  const q = b.values.quantity?.value;
  if (typeof q !== 'number') return null;
  const used = b.values.quantity_accepted?.value;
  const reserved = b.values.quantity_reserved?.value;
  return Math.max(
    0,
    q - (typeof used === 'number' ? used : 0) - (typeof reserved === 'number' ? reserved : 0),
  );
}
