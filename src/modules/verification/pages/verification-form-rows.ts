/**
 * The rows of the benefit form (docs/api.md, Insurers and assisted verification): the benefits it
 * asks about, the cells of each row per network, and the shape of the V2 tree the rows fill. Shared
 * by the form's body (verification-form.ts) and its saved-plan side (verification-design-form.ts).
 */

export type Network = 'inn' | 'oon';
export const NETWORKS: readonly Network[] = ['inn', 'oon'];
export const ROW_FIELDS = ['copay', 'allowance', 'quantity', 'frequency'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

export interface BenefitRowSpec {
  key: string;
  code: string;
  label: string;
  group: string;
}

/** The benefits the form asks about; codes as service-codes.ts and the sandbox plan use them. */
export const BENEFIT_ROWS: readonly BenefitRowSpec[] = [
  { key: 'exam', code: 'exam', label: 'Eye exam', group: 'Exams' },
  { key: 'cl_exam', code: 'exam.contact_lens_fitting', label: 'Contact-lens exam', group: 'Exams' },
  { key: 'frames', code: 'materials.frames', label: 'Frames', group: 'Frames' },
  ...(['single_vision', 'bifocal', 'trifocal', 'progressive'] as const).map((type) => ({
    key: `lens_${type}`,
    code: `materials.spectacle_lenses.${type}`,
    label: `Lenses: ${type.replace('_', ' ')}`,
    group: 'Spectacle lenses',
  })),
  {
    key: 'cl_elective',
    code: 'materials.contact_lenses.elective',
    label: 'Contacts: elective',
    group: 'Contact lenses',
  },
  {
    key: 'cl_medical',
    code: 'materials.contact_lenses.medically_necessary',
    label: 'Contacts: medically necessary',
    group: 'Contact lenses',
  },
  ...(
    [
      ['anti_reflective', 'Anti-reflective coating'],
      ['polycarbonate', 'Polycarbonate'],
      ['photochromic', 'Photochromic'],
    ] as const
  ).map(([option, label]) => ({
    key: `opt_${option}`,
    code: `materials.spectacle_lenses.options.${option}`,
    label: `Option: ${label}`,
    group: 'Lens options',
  })),
];

/** The field of one cell: `frames_oon_allowance`. */
export const cellName = (row: string, net: Network, field: RowField) => `${row}_${net}_${field}`;

/** A frequency as a quantity's comment: "every 24 months". */
export const FREQUENCY = /^every (\d{1,3}) months$/;

export type Entry = { flags?: string[]; value: unknown; comment?: string };
export type Item = { benefit_code: string; refresh_date: string; [list: string]: unknown };
export type Node = { item: Item; children: Node[] };
