import { LENS_OPTIONS, LENS_TYPES } from '@/lib/benefits';
import type { ErrorTree } from '@/platform/kernel/errors';

/**
 * The web Counter's order form (docs/api.md, The counter) as pure functions: its fields become the
 * body of `POST /api/auth/v1/quotes/` for one person of a check, checked by the API's DTO; the
 * DTO's messages go back to the fields they are about. A blank retail leaves the item out.
 */

export const COUNTER_LENS_TYPES = LENS_TYPES.map((type) => ({
  value: type,
  label: type.replaceAll('_', ' '),
}));
export const COUNTER_OPTIONS = LENS_OPTIONS.map((option) => ({
  value: option,
  label: option.replaceAll('_', ' '),
}));
export const COUNTER_TIERS = ['1', '2', '3', '4'];

/** "$1,250.00" → "1250.00"; anything else as typed, for the DTO to refuse. */
const amount = (v: string) =>
  v
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');

/** The request body of a filled form, and where each of its paths came from. */
export function counterBody(
  fields: Record<string, string>,
  uid: string,
  personId: number,
): { body: Record<string, unknown>; fieldOf: Record<string, string> } {
  const f = (name: string) => (fields[name] ?? '').trim();
  const fieldOf: Record<string, string> = { date_of_service: 'date_of_service' };
  const order: Record<string, unknown> = {};
  if (f('frame_retail')) {
    order.frame = { retail: amount(f('frame_retail')) };
    fieldOf['order.frame.retail'] = 'frame_retail';
  }
  if (f('lens_type') && f('lens_retail')) {
    order.lenses = {
      type: f('lens_type'),
      retail: amount(f('lens_retail')),
      ...(f('lens_tier') ? { tier: f('lens_tier') } : {}),
    };
    Object.assign(fieldOf, {
      'order.lenses.type': 'lens_type',
      'order.lenses.retail': 'lens_retail',
      'order.lenses.tier': 'lens_tier',
    });
  }
  const options = LENS_OPTIONS.filter((o) => fields[`opt_${o}`] === 'on');
  if (options.length > 0) {
    order.lens_options = options.map((option, i) => {
      fieldOf[`order.lens_options.${i}.retail`] = `opt_${option}_retail`;
      return { option, retail: amount(f(`opt_${option}_retail`)) };
    });
  }
  if (f('contacts_kind') && f('contacts_retail')) {
    order.contact_lenses = { kind: f('contacts_kind'), retail: amount(f('contacts_retail')) };
    Object.assign(fieldOf, {
      'order.contact_lenses.kind': 'contacts_kind',
      'order.contact_lenses.retail': 'contacts_retail',
    });
  }
  if (f('fitting_kind') && f('fitting_retail')) {
    order.fitting = { kind: f('fitting_kind'), retail: amount(f('fitting_retail')) };
    Object.assign(fieldOf, {
      'order.fitting.kind': 'fitting_kind',
      'order.fitting.retail': 'fitting_retail',
    });
  }
  if (f('in_lieu_keep')) {
    order.in_lieu_keep = f('in_lieu_keep');
    fieldOf['order.in_lieu_keep'] = 'in_lieu_keep';
  }
  const body: Record<string, unknown> = { request_uid: uid, person_id: personId, order };
  if (f('date_of_service')) body.date_of_service = f('date_of_service');
  if (f('patient_age')) {
    body.patient_age = /^\d{1,3}$/.test(f('patient_age'))
      ? Number(f('patient_age'))
      : f('patient_age');
    fieldOf.patient_age = 'patient_age';
  }
  return { body, fieldOf };
}

/** The DTO's errors by form field (`$`: what no field holds, with its path). */
export function counterErrors(tree: ErrorTree, fieldOf: Record<string, string>): ErrorTree {
  const out: Record<string, { $: string[] }> = {};
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key !== '$') {
        walk(value, [...path, key]);
        continue;
      }
      const field = fieldOf[path.join('.')] ?? '$';
      const messages = (value as string[]).map((m) =>
        field === '$' && path.length ? `${path.join('.')}: ${m}` : m,
      );
      (out[field] ??= { $: [] }).$.push(...messages);
    }
  };
  walk(tree, []);
  return out;
}
