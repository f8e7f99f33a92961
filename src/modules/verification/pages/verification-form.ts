import type { ErrorTree } from '@/platform/kernel/errors';
import { formatInstant } from '@/platform/kernel/time';
import type { DesignItem } from '../domain/plan-design-items';
import type { TaskView } from '../domain/task-view';
import { nodeOf, withCells } from './verification-design-form';
import {
  BENEFIT_ROWS,
  cellName,
  type Entry,
  type Item,
  NETWORKS,
  type Node,
  type RowField,
} from './verification-form-rows';
import { materialsBody } from './verification-materials-form';
import { ENTER_A_DATE, formDate, initialPersons, personsBody } from './verification-persons';

/**
 * The benefit form of a verification task (docs/api.md, Insurers and assisted verification) as a pure function: the form's fields
 * become exactly the JSON a verifier POSTs to `complete` (`{plans: [V2 plan result], evidence}`),
 * which the web controller then validates with the API's CompleteTaskDto. Each benefit row gives
 * one item of the V2 tree (its parents added as plain containers), with its copay, allowance and
 * quantity per network as flag-based entries (`inn` / `oon`, as the sandbox plan has them). A
 * frequency ("every 24 months") is the quantity's comment, the way the sandbox and the 271 mapper
 * word it; an out-of-network cell left without one takes the row's in-network frequency (a plan
 * rarely counts them apart). A row's "last used" date is its item's `last_service_date`. Blank rows
 * give nothing. The rows are verification-form-rows.ts's, the persons verification-persons.ts's.
 *
 * Started from a saved plan (docs/api.md, Plan designs: the hidden `plan_design_id`), the form
 * fills its rows from the design's items (designFields, verification-design-form.ts) and the body
 * names the design and gives the design's whole tree, each row's cells replacing the entries they
 * show (the first entry of each list flagged exactly `inn` or `oon`): what the form cannot show
 * (other lists, other flags, comments, benefits without a row) is kept as saved. Every item renews
 * on the plan's date.
 */

/** The field of a row's last use (its item's `last_service_date`): `frames_last_used`. */
export const lastUsedName = (row: string) => `${row}_last_used`;

/** The lists a row's cells write. */
const ROW_LISTS = ['copayment', 'allowance', 'quantity'] as const;

/** Form field → where it goes in the `complete` body (for the plan, the person and evidence). */
const SCALARS: readonly [string, string][] = [
  ['status', 'plans.0.status'],
  ['plan_name', 'plans.0.plan_name'],
  ['plan_group', 'plans.0.plan_group'],
  ['plan_group_id', 'plans.0.plan_group_id'],
  ['plan_begin_date', 'plans.0.plan_begin_date'],
  ['plan_end_date', 'plans.0.plan_end_date'],
  ['plan_refresh_date', 'plans.0.plan_refresh_date'],
  ['oon_benefits', 'plans.0.persons.0.plan.insurer_state'],
  ['plan_refresh_date', 'plans.0.persons.0.plan.refresh_date'],
  ['plan_begin_date', 'plans.0.persons.0.plan.begin_date'],
  ['plan_end_date', 'plans.0.persons.0.plan.end_date'],
  ['evidence_source', 'evidence.source'],
  ['evidence_reference_number', 'evidence.reference_number'],
  ['evidence_representative', 'evidence.representative'],
  ['evidence_checked_at', 'evidence.checked_at'],
];

export interface VerificationFormResult {
  /** Exactly what `POST .../complete/` takes (unvalidated: the DTO checks it). */
  body: { plans: Record<string, unknown>[]; evidence: Record<string, unknown> };
  /** The body's paths (`plans.0.persons.0.plan.items.1.allowance.0.value`) → form field. */
  fieldOf: Record<string, string>;
  /** What the DTO cannot see (a frequency is only a comment), keyed by form field. */
  errors: ErrorTree;
}

const text = (v: string | undefined): string | undefined => {
  const t = (v ?? '').trim();
  return t === '' ? undefined : t;
};

/** "$1,250.00" → "1250.00"; anything else as typed, for the DTO to refuse. */
const amount = (v: string) => v.replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
const integer = (v: string): string | number => (/^\d{1,7}$/.test(v) ? Number(v) : v);

/**
 * The `complete` body of a filled benefit form; with `design` (the items of the saved plan the
 * form's `plan_design_id` names), the design's tree with the rows' cells in it.
 */
export function verificationBody(
  fields: Record<string, string>,
  design?: readonly DesignItem[],
): VerificationFormResult {
  const f = (name: string) => text(fields[name]);
  const errors: ErrorTree = {};
  const fail = (field: string, message: string) => {
    errors[field] = { $: [message] };
  };
  const date = (name: string) => {
    const { date: value, error } = formDate(fields[name]);
    if (error) fail(name, error);
    return value;
  };
  const source = new Map<Entry, string>();
  const refresh = date('plan_refresh_date');
  const begin = date('plan_begin_date');
  const end = date('plan_end_date');
  if (!begin && !errors.plan_begin_date) fail('plan_begin_date', ENTER_A_DATE);
  const designId = design ? f('plan_design_id') : undefined;
  const roots: Node[] = design ? design.map(nodeOf) : [];
  const nodes = new Map<string, Node>();
  const index = (list: Node[]) =>
    list.forEach((n) => {
      if (!nodes.has(n.item.benefit_code)) nodes.set(n.item.benefit_code, n);
      index(n.children);
    });
  index(roots);
  const lastUsedOf = new Map<Node, string>();
  const node = (code: string): Node => {
    const known = nodes.get(code);
    if (known) return known;
    const dot = code.lastIndexOf('.');
    const made: Node = { item: { benefit_code: code, refresh_date: refresh ?? '' }, children: [] };
    (dot < 0 ? roots : node(code.slice(0, dot)).children).push(made);
    nodes.set(code, made);
    return made;
  };
  let oonTyped = false;

  for (const row of BENEFIT_ROWS) {
    const lists: Record<string, Entry[]> = {};
    const add = (list: string, entry: Entry, field: string) => {
      (lists[list] ??= []).push(entry);
      source.set(entry, field);
    };
    for (const net of NETWORKS) {
      const cell = (field: RowField) => f(cellName(row.key, net, field));
      const copay = cell('copay');
      const allowance = cell('allowance');
      const quantity = cell('quantity');
      const innFrequency = f(cellName(row.key, 'inn', 'frequency'));
      const frequency =
        cell('frequency') ??
        (net === 'oon' && (copay || allowance || quantity) ? innFrequency : undefined);
      const frequencyCell = cellName(row.key, cell('frequency') ? net : 'inn', 'frequency');
      if (net === 'oon' && (copay || allowance || quantity || frequency)) oonTyped = true;
      if (copay)
        add('copayment', { flags: [net], value: amount(copay) }, cellName(row.key, net, 'copay'));
      if (allowance)
        add(
          'allowance',
          { flags: [net], value: amount(allowance) },
          cellName(row.key, net, 'allowance'),
        );
      if (frequency && !/^\d{1,3}$/.test(frequency))
        fail(frequencyCell, 'Enter the number of months, e.g. 12.');
      else if (frequency === '0')
        fail(frequencyCell, 'Ensure this value is greater than or equal to 1.');
      if (quantity || frequency) {
        const entry: Entry = { flags: [net], value: quantity ? integer(quantity) : 1 };
        if (frequency) entry.comment = `every ${Number(frequency) || frequency} months`;
        add('quantity', entry, quantity ? cellName(row.key, net, 'quantity') : frequencyCell);
      }
    }
    const lastUsed = date(lastUsedName(row.key));
    const saved = nodes.get(row.code);
    if (saved) {
      // The saved item's entries the row shows give way to what the row holds now.
      for (const list of ROW_LISTS) {
        const kept = withCells((saved.item[list] as Entry[] | undefined) ?? [], lists[list] ?? []);
        if (kept.length > 0) saved.item[list] = kept;
        else delete saved.item[list];
      }
    } else if (Object.keys(lists).length > 0) Object.assign(node(row.code).item, lists);
    if (lastUsed) {
      const at = node(row.code);
      at.item.last_service_date = lastUsed;
      lastUsedOf.set(at, lastUsedName(row.key));
    }
  }
  // Every benefit item renews on a date: asked once, for the whole plan.
  if (roots.length > 0 && !refresh && !errors.plan_refresh_date)
    fail('plan_refresh_date', ENTER_A_DATE);
  if (design) for (const n of nodes.values()) n.item.refresh_date = refresh ?? '';

  const oon = fields.oon_benefits === 'oon' || fields.oon_benefits === 'on';
  if (oonTyped && !oon)
    fail('oon_benefits', 'Out-of-network values were entered: tick "Out-of-network benefits too".');

  const fieldOf: Record<string, string> = Object.fromEntries(SCALARS.map(([n, p]) => [p, n]));
  const toJson = (list: Node[], path: string): Item[] =>
    list.map((n, i) => {
      const at = `${path}.${i}`;
      fieldOf[`${at}.refresh_date`] = 'plan_refresh_date';
      const lastUsedField = lastUsedOf.get(n);
      if (lastUsedField) fieldOf[`${at}.last_service_date`] = lastUsedField;
      for (const [name, value] of Object.entries(n.item))
        if (Array.isArray(value))
          (value as Entry[]).forEach((e, j) => {
            const field = source.get(e);
            if (!field) return;
            fieldOf[`${at}.${name}.${j}.value`] = field;
            fieldOf[`${at}.${name}.${j}`] = field;
          });
      return n.children.length ? { ...n.item, items: toJson(n.children, `${at}.items`) } : n.item;
    });
  const items = toJson(roots, 'plans.0.persons.0.plan.items');

  const status = f('status') ?? 'active';
  const priced = materialsBody(fields);
  for (const [path, field] of Object.entries(priced.fieldOf))
    fieldOf[`plans.0.persons.0.plan.${path}`] = field;
  const personPlan = {
    insurer_state: oon ? 'oon' : 'inn',
    items,
    refresh_date: refresh ?? null,
    begin_date: begin ?? null,
    end_date: end ?? null,
    flags: [],
    ...(priced.materials ? { materials: priced.materials } : {}),
  };
  const { persons, fieldOf: personFields } = personsBody(fields, personPlan, fail);
  for (const [path, field] of Object.entries(personFields)) fieldOf[`plans.0.${path}`] = field;
  const plan = {
    status,
    plan_name: f('plan_name'),
    plan_group: f('plan_group') ?? null,
    plan_group_id: f('plan_group_id') ?? null,
    ...(designId ? { plan_design_id: designId } : {}),
    plan_begin_date: begin,
    plan_end_date: end ?? null,
    plan_refresh_date: refresh ?? null,
    plan_is_active: status === 'active',
    persons,
  };
  fieldOf['plans.0.plan_design_id'] = 'plan_design_id';
  const evidence = {
    source: f('evidence_source'),
    reference_number: f('evidence_reference_number') ?? null,
    representative: f('evidence_representative') ?? null,
    checked_at: f('evidence_checked_at'),
  };
  return { body: { plans: [plan], evidence }, fieldOf, errors };
}

/**
 * The DTO's error tree (keyed like the body) as the form's: each message under the field it is
 * about, `$` for what no field holds. Messages about every item's refresh date are said once.
 */
export function placeErrors(tree: ErrorTree, fieldOf: Record<string, string>): ErrorTree {
  const out: Record<string, { $: string[] }> = {};
  const put = (field: string, messages: string[]) => {
    const list = (out[field] ??= { $: [] }).$;
    for (const m of messages) if (!list.includes(m)) list.push(m);
  };
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key !== '$') {
        walk(value, [...path, key]);
        continue;
      }
      const messages = (value as string[]).filter((m) => typeof m === 'string');
      // Every person carries the same plan: its errors are said once, by the table's cells.
      const at = path
        .join('.')
        .replace(/^plans\.0\.persons\.\d+\.plan\b/, 'plans.0.persons.0.plan');
      const parts = at.split('.');
      let field: string | undefined;
      for (let n = parts.length; n > 0 && !field; n--) field = fieldOf[parts.slice(0, n).join('.')];
      const where = path.length ? `${path.join('.')}: ` : '';
      if (field) put(field, messages);
      else
        put(
          '$',
          messages.map((m) => `${where}${m}`),
        );
    }
  };
  walk(tree, []);
  return out;
}

/** The form as the task page first shows it: the patient as asked, a plan to fill. */
export function initialFields(task: TaskView, now = new Date()): Record<string, string> {
  return {
    status: 'active',
    ...initialPersons(task),
    evidence_source: 'portal',
    evidence_checked_at: formatInstant(now, 'minute'),
  };
}
