import { benefitCodeForProcedure } from '@/lib/benefits';
import type { EstimateServiceInput } from './estimate.types';
import type { IndexedBenefit } from './plan-index';

/** Which benefit of the plan a line is estimated on, and why. */
export interface ResolvedLine {
  /** The benefit estimated on (or the one asked for / mapped to when the plan lacks it). */
  code: string | null;
  /** Null when the line is unmapped or its benefit is absent from the plan. */
  node: IndexedBenefit | null;
  notes: string[];
}

/** A procedure code without its modifiers: `V2020-RT` → `V2020`. */
function bareCode(code: string): string {
  return code.trim().toUpperCase().split('-')[0];
}

/** The mapped benefit of a line's codes (the shared service-code table) and the code that mapped. */
function mapCodes(codes: readonly string[]): { benefit: string; from: string } | null {
  for (const code of codes) {
    const benefit = benefitCodeForProcedure(bareCode(code));
    if (benefit) return { benefit, from: code };
  }
  return null;
}

/**
 * Resolves every line to a benefit of the plan:
 * - a line with `benefit_code` is estimated on exactly that benefit (absent → reimbursed 0);
 * - otherwise its codes are mapped with the shared service-code table. The table names the most
 *   specific benefit a code can mean (`materials.spectacle_lenses.single_vision`); a plan that does
 *   not list it is estimated on the nearest listed ancestor (`materials.spectacle_lenses`), as the
 *   plan's own inheritance would value it. A lens option (`<lenses>.options.<option>`) goes with
 *   the lenses of the same estimate: `…single_vision.options.anti_reflective` when another line is
 *   single-vision lenses, then falls back the same way (so an option without an item of its own
 *   shares the allowance of the lenses it belongs to).
 */
export function resolveLines(
  services: readonly EstimateServiceInput[],
  index: ReadonlyMap<string, IndexedBenefit>,
): ResolvedLine[] {
  const mapped = services.map((s) =>
    s.benefit_code ? { benefit: s.benefit_code, from: null } : mapCodes(s.codes),
  );
  return services.map((service, i): ResolvedLine => {
    const explicit = service.benefit_code;
    if (explicit) {
      const node = index.get(explicit) ?? null;
      return { code: explicit, node, notes: node ? [] : [`no benefit ${explicit} in this plan`] };
    }
    const m = mapped[i];
    if (!m) {
      const codes = service.codes.join(', ') || 'no code';
      return {
        code: null,
        node: null,
        notes: [`no benefit is mapped for ${codes}: not reimbursed`],
      };
    }
    const notes = [`${m.from} maps to ${m.benefit}`];
    const others = mapped
      .map((o, j) => ({ code: o?.benefit ?? null, line: j }))
      .filter((o): o is { code: string; line: number } => o.code !== null && o.line !== i);
    for (const candidate of candidates(m.benefit, others)) {
      const node = index.get(candidate.code);
      if (!node) continue;
      if (candidate.code !== m.benefit) {
        notes.push(
          candidate.withLine === null
            ? `${m.benefit} is not in this plan: estimated on ${candidate.code}`
            : `estimated on ${candidate.code}, with the lenses of line ${candidate.withLine}`,
        );
      }
      return { code: candidate.code, node, notes };
    }
    notes.push(`no benefit ${m.benefit} in this plan`);
    return { code: m.benefit, node: null, notes };
  });
}

/** `a.b.c` → `a.b.c`, `a.b`, `a`. */
function selfAndAncestors(code: string): string[] {
  const parts = code.split('.');
  return parts.map((_, k) => parts.slice(0, parts.length - k).join('.'));
}

function candidates(
  code: string,
  others: { code: string; line: number }[],
): { code: string; withLine: number | null }[] {
  const out: { code: string; withLine: number | null }[] = [];
  const option = /^(.+)\.options(\..+)?$/.exec(code);
  if (option) {
    const [, lenses, rest = ''] = option;
    for (const other of others) {
      if (!other.code.startsWith(`${lenses}.`)) continue;
      const type = other.code.slice(lenses.length + 1).split('.')[0];
      if (type === 'options') continue;
      const typed = `${lenses}.${type}.options${rest}`;
      // Down to the lens type itself, never above it (that is the generic fallback below).
      for (const c of selfAndAncestors(typed).filter((c) => c.length > lenses.length))
        out.push({ code: c, withLine: other.line });
    }
  }
  for (const c of selfAndAncestors(code)) out.push({ code: c, withLine: null });
  return out;
}
