import { toMinor } from '@/platform/kernel/decimal';
import { formatMoney } from '@/platform/kernel/money';
import { EffectiveBenefit, evaluatePlan, planValues } from './benefit.evaluator';
import type { ListName, Network, Plan } from './benefit.types';

type Values = EffectiveBenefit['values'];

interface BenefitRow {
  code: string;
  label: string;
  depth: number;
  /** The item's flags in words ("only with Eye exam"), network flags included. */
  flags: string[];
  /** The item's comment, then the comments of the values it states itself. */
  notes: string[];
  used: boolean;
  inn: SideValues | null;
  oon: SideValues | null;
}

interface SideValues {
  /** Every value that applies, inherited ones included (what the batch CSV flattens). */
  values: Values;
  /**
   * The values to show on this row: those the parent row does not already show with the same
   * value. A child that inherits its parent's $45 copay leaves the cell to the parent.
   */
  shown: Values;
  quantityLeft: number | null;
  /** Whether the row shows `quantityLeft` (false when it is the parent's count, inherited). */
  quantityLeftShown: boolean;
}

const LABELS: Record<string, string> = {
  exam: 'Eye exam',
  routine: 'Routine exam',
  medical: 'Medical eye care',
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
  options: 'Lens options',
  package: 'Frame and lens package',
};

/** A benefit in words ("Single vision" for `materials.spectacle_lenses.single_vision`). */
export function label(code: string): string {
  const last = code.split('.').pop() ?? code;
  return (
    (Object.hasOwn(LABELS, last) ? LABELS[last] : null) ??
    last.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase())
  );
}

/** The flags of docs/api.md, V1 and V2 results, as a front desk would say them. */
function flagWords(flag: string, parent: string | null): string | null {
  switch (flag) {
    case 'inn':
      return 'in network only';
    case 'oon':
      return 'out of network only';
    case 'exclusive-use':
      return parent
        ? `only one ${parent} option per policy year`
        : 'only one of these per policy year';
    case 'required':
      return parent ? `needed for ${parent}` : 'always needed';
    case 'requires-parent-use':
      return parent ? `only with ${parent}` : 'only with the benefit above';
    case 'not_covered':
      return 'not covered';
    default:
      return flag.replace(/-/g, ' ');
  }
}

/** The lists whose value comments are shown as notes ("once every 12 months"). */
const NOTED_LISTS: readonly ListName[] = [
  'copayment',
  'coinsurance',
  'allowance',
  'quantity',
  'discount',
  'margin_limit',
  'is_authorization_required',
];

const QUANTITY_LISTS: readonly ListName[] = ['quantity', 'quantity_accepted', 'quantity_reserved'];

/**
 * One row per benefit for the web page's table: in- and out-of-network values side by side,
 * nesting depth for indentation, and whether the benefit is used up. Raw V2 plan JSON in (doubles
 * as four-decimal strings), evaluated with the benefits module's flag rules. A value a child
 * inherits unchanged is shown once, on the parent.
 */
export function benefitRows(plan: Plan): BenefitRow[] {
  const out: BenefitRow[] = [];
  // The plan's own lists apply to every benefit: shown once (planNotes), not on each top row.
  const root = { label: null, inn: planSide(plan, 'inn'), oon: planSide(plan, 'oon') };
  walk(evaluatePlan(plan, 'inn'), evaluatePlan(plan, 'oon'), root, out);
  return out;
}

function planSide(plan: Plan, network: Network): SideValues {
  const values = planValues(plan, network);
  return { values, shown: values, quantityLeft: null, quantityLeftShown: false };
}

/** The comments of the plan's own lists ("40% off additional complete pairs"), said once. */
export function planNotes(plan: Plan): string[] {
  const out = notes(plan.comment ?? null, planSide(plan, 'inn'), planSide(plan, 'oon'));
  // docs/api.md, Real insurers: who else to ask.
  const c = plan.carve_out;
  if (c) {
    const ids = [c.payer_id && `payer id ${c.payer_id}`, c.phone && `phone ${c.phone}`];
    const detail = ids.filter(Boolean).join(', ');
    out.push(`vision benefits administered by ${c.name}${detail ? ` (${detail})` : ''}`);
  }
  for (const p of plan.other_payers ?? []) {
    const ids = [p.payer_id && `payer id ${p.payer_id}`, p.member_id && `member id ${p.member_id}`];
    const detail = ids.filter(Boolean).join(', ');
    out.push(`other payer: ${p.name}${detail ? ` (${detail})` : ''}`);
  }
  return out;
}

interface Parent {
  /** null for the plan itself. */
  label: string | null;
  inn: SideValues | null;
  oon: SideValues | null;
}

function walk(
  inn: EffectiveBenefit[],
  oon: EffectiveBenefit[],
  parent: Parent,
  out: BenefitRow[],
): void {
  // Both evaluations walk the same items in the same order.
  inn.forEach((i, index) => {
    const o = oon[index];
    const innSide = i.applies ? side(i, parent.inn) : null;
    const oonSide = o.applies ? side(o, parent.oon) : null;
    const row: BenefitRow = {
      code: i.benefit_code,
      label: label(i.benefit_code),
      depth: i.depth,
      flags: i.flags.map((f) => flagWords(f, parent.label)).filter((w): w is string => w !== null),
      notes: [...notes(i.comment, innSide, oonSide), ...usage(i, innSide, oonSide)],
      used: (innSide ? i.used : true) && (oonSide ? o.used : true) && Boolean(innSide || oonSide),
      inn: innSide,
      oon: oonSide,
    };
    out.push(row);
    walk(i.items, o.items, { label: row.label, inn: innSide, oon: oonSide }, out);
  });
}

function side(b: EffectiveBenefit, parent: SideValues | null): SideValues {
  const shown: Values = {};
  for (const [name, v] of Object.entries(b.values) as [ListName, Values[ListName]][]) {
    const above = parent?.values[name];
    if (!v || (above && above.value === v.value && above.comment === v.comment)) continue;
    shown[name] = v;
  }
  const quantityLeft = remaining(b.values);
  return {
    values: b.values,
    shown,
    quantityLeft,
    quantityLeftShown:
      quantityLeft !== null &&
      (parent === null ||
        parent.quantityLeft !== quantityLeft ||
        QUANTITY_LISTS.some((l) => shown[l])),
  };
}

/**
 * docs/api.md, Real insurers as the front desk reads it: the allowance used and what remains (per network when
 * they differ), when the benefit was last used and when it can be used next.
 */
function usage(b: EffectiveBenefit, inn: SideValues | null, oon: SideValues | null): string[] {
  const of = (s: SideValues | null): string | null => {
    const used = s?.shown.allowance_accepted?.value;
    if (typeof used !== 'string') return null;
    const max = s?.values.allowance?.value;
    const left = typeof max === 'string' ? toMinor(max) - toMinor(used) : null;
    return `${formatMoney(toMinor(used))} used${left !== null && left >= 0n ? `, ${formatMoney(left)} remaining` : ''}`;
  };
  const [i, o] = [of(inn), of(oon)];
  const out: string[] = [];
  if (i && i === o) out.push(i);
  else {
    if (i) out.push(`${i} (in network)`);
    if (o) out.push(`${o} (out of network)`);
  }
  if (b.lastServiceDate) out.push(`last used ${b.lastServiceDate}`);
  if (b.nextEligibleDate) out.push(`next eligible ${b.nextEligibleDate}`);
  return out;
}

/** The item's comment, then each shown value's comment; one side's alone says which network. */
function notes(comment: string | null, inn: SideValues | null, oon: SideValues | null): string[] {
  const out = comment ? [comment] : [];
  const of = (s: SideValues | null) =>
    new Set(NOTED_LISTS.map((l) => s?.shown[l]?.comment).filter((c): c is string => Boolean(c)));
  const sides: Record<Network, Set<string>> = { inn: of(inn), oon: of(oon) };
  for (const c of sides.inn) out.push(sides.oon.has(c) ? c : `${c} (in network)`);
  for (const c of sides.oon) if (!sides.inn.has(c)) out.push(`${c} (out of network)`);
  return [...new Set(out)];
}

function remaining(values: Values): number | null {
  const q = values.quantity?.value;
  if (typeof q !== 'number') return null;
  const used = values.quantity_accepted?.value;
  const reserved = values.quantity_reserved?.value;
  return Math.max(
    0,
    q - (typeof used === 'number' ? used : 0) - (typeof reserved === 'number' ? reserved : 0),
  );
}
