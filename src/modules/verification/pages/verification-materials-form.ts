import {
  CONTACT_LENS_ENTRIES,
  LENS_OPTIONS,
  LENS_TYPES,
  benefitLabel,
  type MaterialsList,
} from '@/lib/benefits';

/**
 * The materials price list of a verification task's form (docs/api.md, The counter), in network:
 * one row per thing the list prices (the frame, each lens type, premium progressives by tier,
 * each lens option, contact lenses and fittings), one cell per key of a rule. A filled row is one
 * rule of `plan.materials`; blank rows give nothing; a form with no row filled gives no list
 * (the group's saved design's then, when it has one). Started from a saved plan, the rows are
 * filled from the design's list. Pure: fields in, the body's part and its field map out.
 */

export interface MaterialsRow {
  /** The row's field prefix: `mat_frame`, `mat_lens_progressive_premium_t2`. */
  key: string;
  label: string;
  /** Where the rule sits in the list. */
  path: readonly string[];
}

const words = (code: string) => code.replaceAll('_', ' ');
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);
const PREMIUM_TIERS = ['1', '2', '3', '4'];

export const MATERIALS_ROWS: readonly MaterialsRow[] = [
  { key: 'mat_frame', label: 'Frame', path: ['frame'] },
  ...LENS_TYPES.flatMap((type): MaterialsRow[] =>
    type === 'progressive_premium'
      ? PREMIUM_TIERS.map((tier) => ({
          key: `mat_lens_${type}_t${tier}`,
          label: `Lenses: progressive premium, tier ${tier}`,
          path: ['lenses', type, 'tiers', tier],
        }))
      : [{ key: `mat_lens_${type}`, label: `Lenses: ${words(type)}`, path: ['lenses', type] }],
  ),
  ...LENS_OPTIONS.map((option) => ({
    key: `mat_option_${option}`,
    label: `Option: ${words(option)}`,
    path: ['lens_options', option],
  })),
  ...CONTACT_LENS_ENTRIES.map((entry) => ({
    key: `mat_contacts_${entry}`,
    label: capital(
      entry.startsWith('fitting_')
        ? `contact lens fitting, ${entry.slice(8)}`
        : `${benefitLabel('materials.contact_lenses').toLowerCase()}, ${words(entry)}`,
    ),
    path: ['contact_lenses', entry],
  })),
];

/** A rule's keys, in the table's order, with each column's heading. */
export const MATERIALS_CELLS = [
  { key: 'copayment', label: 'Copay' },
  { key: 'allowance', label: 'Allowance' },
  { key: 'discount_percent', label: '% off' },
  { key: 'discount_on', label: 'Off' },
  { key: 'price', label: 'Price' },
  { key: 'max_age', label: 'Free to age' },
  { key: 'code', label: 'Code' },
] as const;

/** The pairs the form asks about: contact lenses in lieu of the frame, of the lenses. */
export const IN_LIEU_FIELDS = [
  { field: 'mat_in_lieu_frame', pair: ['contact_lenses', 'frame'] },
  { field: 'mat_in_lieu_lenses', pair: ['contact_lenses', 'lenses'] },
] as const;

const cell = (row: MaterialsRow, key: string) => `${row.key}_${key}`;
const MONEY_KEYS = new Set(['copayment', 'allowance', 'discount_percent', 'price']);

/** "$1,250.00" → "1250.00"; anything else as typed, for the DTO to refuse. */
const amount = (v: string) => v.replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');

function at(list: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let node = list;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>) : undefined;
}

/** The form's fields of a saved list (a design's): each rule in its row, money as typed. */
export function materialsFields(list: MaterialsList | Record<string, unknown> | null | undefined) {
  const fields: Record<string, string> = {};
  if (!list) return fields;
  for (const row of MATERIALS_ROWS) {
    const rule = at(list, row.path);
    if (!rule) continue;
    for (const { key } of MATERIALS_CELLS) {
      const value = rule[key];
      if (typeof value === 'number') fields[cell(row, key)] = String(value);
      else if (typeof value === 'string')
        fields[cell(row, key)] = MONEY_KEYS.has(key) ? value.replace(/(\.\d\d?)0+$/, '$1') : value;
    }
  }
  const pairs = Array.isArray((list as MaterialsList).in_lieu_of)
    ? (list as MaterialsList).in_lieu_of!
    : [];
  for (const { field, pair } of IN_LIEU_FIELDS)
    if (pairs.some((p) => p.includes(pair[0]) && p.includes(pair[1]))) fields[field] = 'on';
  return fields;
}

/**
 * The list of a filled form (undefined when no row is filled), and where each of its values came
 * from (`materials.frame.allowance` → `mat_frame_allowance`) to place the DTO's messages.
 */
export function materialsBody(fields: Record<string, string>): {
  materials: Record<string, unknown> | undefined;
  fieldOf: Record<string, string>;
} {
  const list: Record<string, unknown> = { network: 'inn' };
  const fieldOf: Record<string, string> = {};
  let filled = false;
  for (const row of MATERIALS_ROWS) {
    const rule: Record<string, unknown> = {};
    for (const { key } of MATERIALS_CELLS) {
      const typed = (fields[cell(row, key)] ?? '').trim();
      if (!typed) continue;
      rule[key] = MONEY_KEYS.has(key)
        ? amount(typed)
        : key === 'max_age' && /^\d{1,3}$/.test(typed)
          ? Number(typed)
          : typed;
      fieldOf[['materials', ...row.path, key].join('.')] = cell(row, key);
    }
    if (Object.keys(rule).length === 0) continue;
    filled = true;
    let node = list;
    for (const key of row.path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[row.path[row.path.length - 1]] = rule;
  }
  const pairs = IN_LIEU_FIELDS.filter(({ field }) => fields[field] === 'on').map(({ pair }) => [
    ...pair,
  ]);
  if (pairs.length > 0) {
    list.in_lieu_of = pairs;
    filled = true;
  }
  return { materials: filled ? list : undefined, fieldOf };
}
