import { fromMinor, normaliseDecimal, toMinor } from '@/platform/kernel/decimal';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import type { Network, Plan } from '@/lib/benefits';
import { type EstimateDay, notYetAvailable } from './estimate.availability';
import { resolveLines } from './estimate.resolve';
import type { Estimate, EstimateGroup, EstimateLine, EstimateServiceInput } from './estimate.types';
import { IndexedBenefit, indexPlan, PLAN_LEVEL } from './plan-index';

/**
 * The reimbursement rules of docs/api.md (Estimates), in integer ten-thousandths (BigInt): no float ever
 * touches money. Per benefit group (a package item and its sub-items form one group; any other
 * benefit is its own group):
 *   capped(line)  = min(cost × quantity, allowance left for the line) × (1 − coinsurance/100)
 *   reimbursement = max(0, min(Σ charges − group copayment, Σ capped))
 * In network, a benefit without an allowance but with a copayment or coinsurance on the network
 * is covered in full (no cap): the group's copayment is what the patient pays (a $0 copayment
 * exam owes $0). A benefit absent from the plan, not covered (`not_covered`), without an
 * allowance (out of network, or in network with neither copayment nor coinsurance), not applying
 * on the network, or used up (no quantity left) caps its line at 0. Lines whose allowance comes from the same item
 * (two lines of one benefit, a lens option inheriting the lenses' allowance) share that one
 * allowance in line order, and an allowance already partly used or reserved counts only what is
 * left. Every line's `notes` say why its cap is what it is.
 */
export function estimateReimbursement(
  plan: Plan,
  network: Network,
  services: readonly EstimateServiceInput[],
  /** The day the services are estimated for: a benefit not yet available then pays 0. */
  day: EstimateDay = {},
): Estimate {
  const index = indexPlan(plan, network);
  const resolved = resolveLines(services, index);
  const side = network === 'oon' ? 'out-of-network' : 'in-network';
  const pools = new Map<string, { left: bigint; lines: number[] }>();
  const groups = new Map<string, GroupSum>();
  let total = 0n;

  const lines = services.map((service, i): EstimateLine => {
    const { code, node, notes } = resolved[i];
    const charge = money(service.cost) * BigInt(service.quantity);
    total += charge;
    let cap: bigint | null = null;
    let capped = 0n;
    if (node) {
      const group = groupOf(groups, index, node);
      if (node.packageCode)
        notes.push(`part of the ${node.packageCode} package: one group, one copayment`);
      if (group.lines.length === 0 && group.copay > 0n)
        notes.push(`${side} copayment ${dollars(group.copay)} on ${group.code}, once per group`);
      ({ cap, capped } = capLine(node, i, charge, side, pools, notes, day));
      group.lines.push(i);
      group.charges += charge;
      group.capped += capped;
    }
    return {
      index: i,
      codes: service.codes,
      benefit_code: code,
      cost: fromMinor(money(service.cost)),
      quantity: service.quantity,
      charge: fromMinor(charge),
      cap: cap === null ? null : fromMinor(cap),
      capped: fromMinor(capped),
      notes,
    };
  });

  const groupAnswers = [...groups.values()].map(groupAnswer);
  const reimbursed = groupAnswers.reduce((sum, g) => sum + toMinor(g.reimbursement), 0n);
  return {
    network,
    total_cost: fromMinor(total),
    estimated_reimbursement: fromMinor(reimbursed),
    patient_responsibility: fromMinor(total - reimbursed),
    groups: groupAnswers,
    lines,
  };
}

interface GroupSum {
  code: string;
  copay: bigint;
  charges: bigint;
  capped: bigint;
  lines: number[];
}

function groupOf(
  groups: Map<string, GroupSum>,
  index: ReadonlyMap<string, IndexedBenefit>,
  node: IndexedBenefit,
): GroupSum {
  const code = node.packageCode ?? node.code;
  let group = groups.get(code);
  if (!group) {
    const head = index.get(code)!;
    // A benefit that does not apply on the network has no copayment on it either.
    const copay = head.excludedBy ? null : head.effective.values.copayment?.value;
    group = { code, copay: optionalMoney(copay), charges: 0n, capped: 0n, lines: [] };
    groups.set(code, group);
  }
  return group;
}

function groupAnswer(g: GroupSum): EstimateGroup {
  const afterCopay = max(0n, g.charges - g.copay);
  return {
    benefit_code: g.code,
    copayment: fromMinor(g.copay),
    max_after_copayment: fromMinor(afterCopay),
    sum_of_caps: fromMinor(g.capped),
    reimbursement: fromMinor(max(0n, min(afterCopay, g.capped))),
  };
}

function capLine(
  node: IndexedBenefit,
  line: number,
  charge: bigint,
  side: string,
  pools: Map<string, { left: bigint; lines: number[] }>,
  notes: string[],
  day: EstimateDay,
): { cap: bigint | null; capped: bigint } {
  const values = node.effective.values;
  // docs/api.md, Estimates: a benefit not yet available again on the day pays nothing.
  const waiting = notYetAvailable(node, day);
  if (waiting) {
    notes.push(waiting);
    // Both can be true (a used exam the payer reports): each is said.
    const used = usedUpReason(node);
    if (used) notes.push(used);
    return { cap: values.allowance ? 0n : null, capped: 0n };
  }
  if (node.excludedBy) {
    const other = side === 'out-of-network' ? 'in-network' : 'out-of-network';
    notes.push(`no ${side} benefit: ${node.excludedBy} is ${other} only`);
    return { cap: null, capped: 0n };
  }
  const allowance = values.allowance;
  const usedUp = usedUpReason(node);
  if (usedUp) {
    notes.push(usedUp);
    return { cap: allowance ? 0n : null, capped: 0n };
  }
  if (node.effective.flags.includes('not_covered')) {
    notes.push(`not covered: the plan names ${node.code} and does not cover it`);
    return { cap: null, capped: 0n };
  }
  if ((!allowance || node.allowanceSource === null) && coveredAfterCopay(node, side)) {
    // In network the practice accepts the insurer's fee: a benefit the plan gives a copayment
    // (or coinsurance) without an allowance is covered in full once the copayment is paid.
    notes.push(`${side}: covered without an allowance, the patient pays the copayment`);
    return { cap: null, capped: withPlanShare(node, charge, notes) };
  }
  if (!allowance || node.allowanceSource === null) {
    notes.push(`no ${side} benefit: ${node.code} has no ${side} allowance`);
    if (node.descendantsWithAllowance.length > 0)
      notes.push(
        `benefits under it with an allowance: ${node.descendantsWithAllowance.join(', ')} (estimate on one with benefit_code)`,
      );
    return { cap: null, capped: 0n };
  }

  const source = node.allowanceSource;
  const amount = money(allowance.value as string);
  const where = source === PLAN_LEVEL ? 'the plan' : source;
  notes.push(
    `${side} allowance ${dollars(amount)} on ${where}` +
      (source !== node.code ? `, inherited by ${node.code}` : '') +
      (allowance.comment ? ` (${allowance.comment})` : ''),
  );
  const accepted = optionalMoney(values.allowance_accepted?.value);
  const reserved = optionalMoney(values.allowance_reserved?.value);
  if (accepted > 0n || reserved > 0n) {
    const parts = [accepted > 0n ? `${dollars(accepted)} already used` : null];
    parts.push(reserved > 0n ? `${dollars(reserved)} reserved by pending claims` : null);
    const left = max(0n, amount - accepted - reserved);
    notes.push(`${parts.filter(Boolean).join(', ')}: ${dollars(left)} left`);
  }
  let pool = pools.get(source);
  if (pool) {
    notes.push(
      `allowance shared with line ${pool.lines.join(', ')}: ${dollars(pool.left)} left for this line`,
    );
  } else {
    pool = { left: max(0n, amount - accepted - reserved), lines: [] };
    pools.set(source, pool);
  }
  const cap = pool.left;
  const base = min(charge, cap);
  pool.left -= base;
  pool.lines.push(line);
  notes.push(
    charge > cap
      ? `charge ${dollars(charge)} is over the cap: ${dollars(cap)} counts`
      : `charge ${dollars(charge)} is within the cap`,
  );

  return { cap, capped: withPlanShare(node, base, notes) };
}

/** In network, a benefit with a copayment or coinsurance stated on the network is covered. */
function coveredAfterCopay(node: IndexedBenefit, side: string): boolean {
  if (side !== 'in-network') return false;
  const v = node.effective.values;
  return v.copayment !== undefined || v.coinsurance !== undefined;
}

/** The part of `base` the plan pays after the benefit's coinsurance (all of it without one). */
function withPlanShare(node: IndexedBenefit, base: bigint, notes: string[]): bigint {
  const values = node.effective.values;
  const coinsurance = values.coinsurance ? money(values.coinsurance.value as string) : 0n;
  if (coinsurance <= 0n) return base;
  const capped = withCoinsurance(base, coinsurance);
  notes.push(
    `coinsurance ${percent(coinsurance)}% on ${node.code}: the plan pays ${percent(HUNDRED_PERCENT - min(coinsurance, HUNDRED_PERCENT))}% of ${dollars(base)} = ${dollars(capped)}`,
  );
  return capped;
}

/** "benefit used this period" and why, when no unit (or none of the allowance) is left. */
function usedUpReason(node: IndexedBenefit): string | null {
  const v = node.effective.values;
  const quantity = v.quantity?.value;
  const accepted = typeof v.quantity_accepted?.value === 'number' ? v.quantity_accepted.value : 0;
  const reserved = typeof v.quantity_reserved?.value === 'number' ? v.quantity_reserved.value : 0;
  if (typeof quantity === 'number' && quantity - accepted - reserved <= 0) {
    if (quantity <= 0) return 'no units covered this period (quantity 0)';
    if (accepted >= quantity) return `benefit used this period (${accepted} of ${quantity} used)`;
    return `no use left this period: ${accepted} of ${quantity} used, ${reserved} reserved by pending claims`;
  }
  // The evaluator's rule: quantity or allowance accepted in full.
  if (node.effective.used) return 'benefit used this period (allowance used in full)';
  return null;
}

const HUNDRED_PERCENT = 100n * 10_000n;

/** base × (1 − c/100), rounded half up to the ten-thousandth (c in ten-thousandths of a percent). */
export function withCoinsurance(base: bigint, coinsurance: bigint): bigint {
  if (coinsurance >= HUNDRED_PERCENT) return 0n;
  return (base * (HUNDRED_PERCENT - coinsurance) + HUNDRED_PERCENT / 2n) / HUNDRED_PERCENT;
}

function money(value: string): bigint {
  return toMinor(normaliseDecimal(value));
}

function optionalMoney(value: unknown): bigint {
  return typeof value === 'string' ? money(value) : 0n;
}

/** "$45.00", or "$45.1234" when the amount has more than cents. */
const dollars = (minor: bigint) => formatMoney(minor, MONEY.note);

function percent(minor: bigint): string {
  return fromMinor(minor).replace(/\.?0+$/, '');
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
