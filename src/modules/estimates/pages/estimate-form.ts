import type { ErrorTree } from '@/platform/kernel/errors';
import { MAX_ESTIMATE_SERVICES } from '../api/dto/create-estimate.dto';

/** The short list of common services offered on the estimate form (codes of the shared table). */
export const COMMON_SERVICES: { key: string; label: string; codes: string[] }[] = [
  { key: 'exam', label: 'Eye exam, established patient (92014)', codes: ['92014'] },
  { key: 'exam_new', label: 'Eye exam, new patient (92004)', codes: ['92004'] },
  { key: 'cl_fitting', label: 'Contact lens fitting (92310)', codes: ['92310'] },
  { key: 'frame', label: 'Frame (V2020)', codes: ['V2020'] },
  { key: 'single_vision', label: 'Single vision lens, per lens (V2100)', codes: ['V2100'] },
  { key: 'bifocal', label: 'Bifocal lens, per lens (V2200)', codes: ['V2200'] },
  { key: 'trifocal', label: 'Trifocal lens, per lens (V2300)', codes: ['V2300'] },
  { key: 'progressive', label: 'Progressive lens, per lens (V2781)', codes: ['V2781'] },
  { key: 'anti_reflective', label: 'Anti-reflective coating (V2750)', codes: ['V2750'] },
  { key: 'photochromic', label: 'Photochromic lenses (V2744)', codes: ['V2744'] },
  { key: 'polycarbonate', label: 'Polycarbonate lenses (V2784)', codes: ['V2784'] },
  { key: 'contacts', label: 'Contact lenses, soft (V2520)', codes: ['V2520'] },
];

export const FIRST_ROWS = 4;

/** One line of the form as typed (strings, so the page shows back exactly what was sent). */
export interface FormRow {
  common: string;
  codes: string;
  benefit: string;
  cost: string;
  quantity: string;
  errors: ErrorTree | null;
}

export interface EstimateForm {
  network: string;
  /** `date_of_service` as typed (blank: today). */
  dateOfService: string;
  rows: FormRow[];
}

/** The form's rows (`common_0`, `codes_0`, ...; plain urlencoded fields, no JavaScript). */
export function readForm(fields: Record<string, string>, addRow: boolean): EstimateForm {
  const count = clamp(Number.parseInt(fields.rows ?? '', 10) || FIRST_ROWS);
  const rows: FormRow[] = [];
  for (let i = 0; i < count; i++) {
    rows.push({
      common: fields[`common_${i}`] ?? '',
      codes: (fields[`codes_${i}`] ?? '').trim(),
      benefit: fields[`benefit_${i}`] ?? '',
      cost: (fields[`cost_${i}`] ?? '').trim(),
      quantity: (fields[`quantity_${i}`] ?? '').trim(),
      errors: null,
    });
  }
  if (addRow && rows.length < MAX_ESTIMATE_SERVICES) rows.push(emptyRow());
  return {
    network: fields.network === 'inn' ? 'inn' : 'oon',
    dateOfService: (fields.date_of_service ?? '').trim(),
    rows,
  };
}

export function emptyForm(): EstimateForm {
  return { network: 'oon', dateOfService: '', rows: Array.from({ length: FIRST_ROWS }, emptyRow) };
}

function emptyRow(): FormRow {
  return { common: '', codes: '', benefit: '', cost: '', quantity: '', errors: null };
}

function clamp(n: number): number {
  return Math.min(Math.max(n, 1), MAX_ESTIMATE_SERVICES);
}

/**
 * The API body of the filled rows (a row counts when anything but its quantity is filled), and
 * which form row each service came from, to put its errors back beside it. Typed codes win over
 * the common-service choice.
 */
export function toRequestBody(
  form: EstimateForm,
  uid: string,
  personId: string,
): { body: Record<string, unknown>; rowOf: number[] } {
  const services: Record<string, unknown>[] = [];
  const rowOf: number[] = [];
  form.rows.forEach((row, i) => {
    const common = COMMON_SERVICES.find((c) => c.key === row.common);
    if (!row.codes && !common && !row.cost && !row.benefit) return;
    const codes = row.codes ? row.codes.split(/[\s,]+/).filter(Boolean) : (common?.codes ?? []);
    services.push({
      codes,
      cost: row.cost || undefined,
      ...(row.quantity ? { quantity: row.quantity } : {}),
      ...(row.benefit ? { benefit_code: row.benefit } : {}),
    });
    rowOf.push(i);
  });
  return {
    body: {
      request_uid: uid,
      person_id: personId,
      network: form.network,
      ...(form.dateOfService ? { date_of_service: form.dateOfService } : {}),
      services,
    },
    rowOf,
  };
}

/** Puts `services.<k>` errors on their form rows; returns the messages that belong to no row. */
export function placeErrors(form: EstimateForm, errors: ErrorTree, rowOf: number[]): string[] {
  const general: string[] = [...(errors.$ ?? [])];
  const services = errors.services as ErrorTree | undefined;
  for (const [key, node] of Object.entries(services ?? {})) {
    if (key === '$') {
      if (rowOf.length === 0) general.push('Fill in at least one service line.');
      else general.push(...(node as string[]));
      continue;
    }
    const row = form.rows[rowOf[Number(key)]];
    if (row) row.errors = node as ErrorTree;
  }
  for (const [field, node] of Object.entries(errors)) {
    if (field === '$' || field === 'services') continue;
    general.push(...((node as ErrorTree).$ ?? []));
  }
  return general;
}
