import type { DesignItem } from '../domain/plan-design-items';
import {
  BENEFIT_ROWS,
  cellName,
  type Entry,
  FREQUENCY,
  type Network,
  NETWORKS,
  type Node,
} from './verification-form-rows';

/**
 * The benefit form started from a saved plan (docs/api.md, Plan designs): its rows filled from the
 * design's items (designFields), and the design's tree the form's body (verification-form.ts)
 * completes with, each row's cells replacing only the entries they show (nodeOf, withCells).
 */

/** A saved item as a node of the form's tree (its children as nodes, its lists copied). */
export function nodeOf(saved: DesignItem): Node {
  const { items, ...item } = structuredClone(saved);
  return {
    item: { refresh_date: '', ...item },
    children: (items ?? []).map(nodeOf),
  };
}

const onlyFlag = (e: Entry, net: Network) => e.flags?.length === 1 && e.flags[0] === net;

/**
 * A saved list with a row's entries in it: per network, the first entry flagged exactly that
 * network (the one the row showed) is replaced by the row's entry (keeping its comment, unless
 * the row's entry brings one or it was a frequency the row shows), or dropped when the row has
 * none; a row's entry with nothing to replace is added. Other entries stay as saved.
 */
export function withCells(saved: Entry[], cells: Entry[]): Entry[] {
  const out = [...saved];
  for (const net of NETWORKS) {
    const cell = cells.find((e) => onlyFlag(e, net));
    const at = out.findIndex((e) => onlyFlag(e, net));
    if (at < 0) {
      if (cell) out.push(cell);
      continue;
    }
    const old = out[at];
    if (!cell) out.splice(at, 1);
    else {
      if (!cell.comment && old.comment && !FREQUENCY.test(old.comment)) cell.comment = old.comment;
      out[at] = cell;
    }
  }
  return out;
}

/** A saved amount as the form shows it: "150.0000" → "150", "12.5000" → "12.5". */
const shownAmount = (value: unknown) =>
  String(value)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * The rows of the form filled from a saved plan's items (docs/api.md, Plan designs): each row's
 * cells from its item (found by code at any depth): the first copayment, allowance and quantity
 * entry flagged exactly `inn` or `oon`, a quantity's "every N months" as its frequency. Used
 * values are not saved in a design: the verifier enters them. "Out-of-network benefits too" is
 * ticked when an out-of-network cell is filled.
 */
export function designFields(items: readonly DesignItem[]): Record<string, string> {
  const byCode = new Map<string, DesignItem>();
  const walk = (list: readonly DesignItem[]) =>
    list.forEach((i) => {
      if (!byCode.has(i.benefit_code)) byCode.set(i.benefit_code, i);
      walk(i.items ?? []);
    });
  walk(items);
  const out: Record<string, string> = {};
  for (const row of BENEFIT_ROWS) {
    const item = byCode.get(row.code);
    if (!item) continue;
    for (const net of NETWORKS) {
      const first = (list: string) =>
        ((item[list] as Entry[] | undefined) ?? []).find((e) => onlyFlag(e, net));
      const copay = first('copayment');
      const allowance = first('allowance');
      const quantity = first('quantity');
      if (copay) out[cellName(row.key, net, 'copay')] = shownAmount(copay.value);
      if (allowance) out[cellName(row.key, net, 'allowance')] = shownAmount(allowance.value);
      if (quantity) {
        out[cellName(row.key, net, 'quantity')] = String(quantity.value);
        const every = FREQUENCY.exec(quantity.comment ?? '');
        if (every) out[cellName(row.key, net, 'frequency')] = String(Number(every[1]));
      }
      if (net === 'oon' && (copay || allowance || quantity)) out.oon_benefits = 'oon';
    }
  }
  return out;
}
