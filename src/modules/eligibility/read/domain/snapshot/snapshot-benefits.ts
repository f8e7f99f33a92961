import {
  benefitLabel,
  benefitRows,
  type Frequency,
  type LastService,
  type NextEligible,
  planFromJson,
  type PlanJson,
} from '@/lib/benefits';
import type { ReportColumn, ReportRow } from '@/lib/pdf';
import { formatDecimal4 } from '@/platform/kernel/decimal';
import { formatMoney, MONEY } from '@/platform/kernel/money';

/**
 * What a V2 benefit item says about time, as the answer prints it (docs/api.md, V1 and V2
 * results; Next eligible dates): the dates, and the objects where the answer carries them.
 */
export interface ItemTimesJson {
  benefit_code: string;
  items?: ItemTimesJson[] | null;
  last_service_date?: string | null;
  next_eligible_date?: string | null;
  frequency?: Frequency | null;
  last_service?: LastService | null;
  next_eligible?: NextEligible | null;
}

export type SnapshotPlanJson = PlanJson & { items: ItemTimesJson[] };

export const BENEFIT_COLUMNS: readonly ReportColumn[] = [
  { title: 'Benefit', width: 150 },
  { title: 'Copay', width: 76 },
  { title: 'Allowance', width: 84 },
  { title: 'Frequency', width: 82 },
  { title: 'Last service', width: 62 },
  { title: 'Next eligible', width: 78 },
];

/** Points of indentation per level of the benefit tree. */
const INDENT = 8;

const BASIS_WORDS: Record<NextEligible['basis'], string> = {
  payer_stated: 'stated by the payer',
  computed: 'computed',
  unknown: 'unknown',
};

const SOURCE_WORDS: Record<LastService['source'], string> = {
  payer: 'per the payer',
  claim: 'per a claim filed',
  remittance: 'per a remittance',
  staff: 'per staff',
};

/**
 * The benefit table of a person's plan: one row per benefit of the tree, in its order and
 * indented by depth, with the copay and allowance in and out of network (inherited values
 * included, as the insurer's flags select them), the frequency, the last service and the next
 * eligible date with its basis. Also the sentences that explain the next eligible dates.
 */
export function benefitTable(plan: SnapshotPlanJson): {
  rows: ReportRow[];
  explanations: string[];
} {
  const times = new Map<string, ItemTimesJson>();
  const walk = (items: readonly ItemTimesJson[] | null | undefined) => {
    for (const item of items ?? []) {
      if (!times.has(item.benefit_code)) times.set(item.benefit_code, item);
      walk(item.items);
    }
  };
  walk(plan.items);

  const rows: ReportRow[] = [];
  const explanations: string[] = [];
  const explained = new Set<string>();
  for (const row of benefitRows(planFromJson(plan))) {
    const item = times.get(row.code);
    rows.push({
      indent: Math.min(row.depth, 8) * INDENT,
      cells: [
        [row.label, [...row.flags, ...(row.used ? ['used up'] : [])].join(', ')]
          .filter(Boolean)
          .join('\n'),
        sides(row.inn?.values, row.oon?.values, copay),
        sides(row.inn?.values, row.oon?.values, (v) => money(v.allowance?.value)),
        item?.frequency
          ? frequencyWords(item.frequency)
          : sides(row.inn?.values, row.oon?.values, (v) => quantityWords(v.quantity)),
        lastServiceCell(item),
        nextEligibleCell(item),
      ],
    });
    const why = item?.next_eligible?.explanation ?? [];
    // The computation's sentences often open with the benefit's name already.
    const said = why.join(' ');
    // A benefit under another carries its parent's explanation (docs/api.md, Next eligible
    // dates in results): it is printed once, under the parent.
    if (said && !explained.has(said)) {
      explained.add(said);
      explanations.push(said.startsWith(`${row.label}:`) ? said : `${row.label}: ${said}`);
    }
  }
  return { rows, explanations };
}

type Values = Record<string, { value: string | number | boolean; comment: string | null }>;

/** One cell from both networks: the value once when alike, else "In" and "Out" lines; "—" for none. */
function sides(
  inn: Values | undefined,
  oon: Values | undefined,
  show: (values: Values) => string | null,
): string {
  const i = inn ? show(inn) : null;
  const o = oon ? show(oon) : null;
  if (i === o) return i ?? '—';
  return [i && `In: ${i}`, o && `Out: ${o}`].filter(Boolean).join('\n') || '—';
}

function copay(v: Values): string | null {
  const parts = [money(v.copayment?.value)];
  const coinsurance = typeof v.coinsurance?.value === 'string' ? v.coinsurance.value : null;
  const rate = coinsurance === null ? null : formatDecimal4(coinsurance);
  if (rate !== null) parts.push(`${rate.replace(/\.?0+$/, '')}% coins.`);
  return parts.filter(Boolean).join(', ') || null;
}

function money(value: string | number | boolean | undefined): string | null {
  return typeof value === 'string' ? formatMoney(value, MONEY.page) : null;
}

function quantityWords(q: Values[string] | undefined): string | null {
  if (!q || typeof q.value !== 'number') return null;
  return q.comment ? `${q.value} (${q.comment})` : String(q.value);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const times = (n: number) => (n === 1 ? 'Once' : n === 2 ? 'Twice' : `${n} times`);

/** "Once every 24 months", "Twice per calendar year", with what it shares. */
export function frequencyWords(f: Frequency): string {
  const months = f.period.months ?? 12;
  const years = Math.max(1, Math.round(months / 12));
  const kind = f.period.kind === 'plan_year' ? 'plan year' : 'calendar year';
  const period =
    f.period.kind === 'rolling'
      ? `every ${plural(months, 'month', 'months')}`
      : years === 1
        ? `per ${kind}`
        : `every ${years} ${kind}s`;
  const shared = f.shared_with?.length
    ? `; shared with ${f.shared_with.map((c) => benefitLabel(c).toLowerCase()).join(', ')}`
    : '';
  return `${times(f.count)} ${period}${shared}`;
}

function lastServiceCell(item: ItemTimesJson | undefined): string {
  if (item?.last_service)
    return `${item.last_service.date}\n${SOURCE_WORDS[item.last_service.source] ?? item.last_service.source}`;
  return item?.last_service_date ?? '—';
}

/** The object's date and basis when the item has one, else the plain date (docs/api.md). */
function nextEligibleCell(item: ItemTimesJson | undefined): string {
  const next = item?.next_eligible;
  if (next) return `${next.date ?? 'Not known'}\n${BASIS_WORDS[next.basis] ?? next.basis}`;
  return item?.next_eligible_date ?? '—';
}
