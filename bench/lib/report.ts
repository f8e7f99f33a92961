/** One line of the results table: a figure, its target, and whether it was reached. */
export interface Row {
  scenario: string;
  figure: string;
  value: string;
  target: string;
  /** null: reported, not judged (context figures). */
  met: boolean | null;
}

export function row(
  scenario: string,
  figure: string,
  value: string,
  target: string,
  met: boolean | null,
): Row {
  return { scenario, figure, value, target, met };
}

export function verdict(met: boolean | null): string {
  return met === null ? '' : met ? 'met' : 'MISSED';
}

/** A Markdown table: readable in a terminal and pasted as-is into bench/README.md. */
export function table(rows: Row[]): string {
  const header = ['scenario', 'figure', 'value', 'target', 'result'];
  const cells = rows.map((r) => [r.scenario, r.figure, r.value, r.target, verdict(r.met)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.map(line),
  ].join('\n');
}

export const ms = (n: number) => `${Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : 'n/a'} ms`;
export const ratio = (n: number) => `${Number.isFinite(n) ? n.toFixed(2) : 'n/a'}×`;
export const pct = (n: number) => `${Number.isFinite(n) ? (n * 100).toFixed(0) : 'n/a'}%`;
export const perSec = (n: number) => `${Number.isFinite(n) ? n.toFixed(0) : 'n/a'}/s`;
export const secs = (n: number) => `${Number.isFinite(n) ? n.toFixed(1) : 'n/a'} s`;
