import { X12ParseError } from './x12.errors';

/** The four delimiters an interchange declares in its ISA header. */
export interface Separators {
  element: string;
  component: string;
  /** ISA11 in 00501 and later; null for older interchanges that put `U` there. */
  repetition: string | null;
  segment: string;
}

/** The delimiters this service writes (Optum's and Stedi's defaults). */
export const DEFAULT_SEPARATORS: Separators = {
  element: '*',
  component: ':',
  repetition: '^',
  segment: '~',
};

/**
 * One segment as read: its id, its raw elements (index 0 is the id, so `el(3)` is NM103), and
 * where it stood in the interchange (1-based, ISA = 1) for error messages.
 */
export class Segment {
  constructor(
    readonly id: string,
    readonly elements: readonly string[],
    readonly position: number,
    readonly separators: Separators,
  ) {}

  /** Element `n` (1-based), trimmed; '' when absent. */
  el(n: number): string {
    return (this.elements[n] ?? '').trim();
  }

  /** Element `n` split into its components ('' components kept, so positions stay right). */
  components(n: number): string[] {
    const value = this.el(n);
    return value === '' ? [] : value.split(this.separators.component).map((c) => c.trim());
  }

  /** Element `n` split into its repetitions, empty ones dropped. */
  repeats(n: number): string[] {
    const value = this.el(n);
    if (value === '') return [];
    const parts = this.separators.repetition ? value.split(this.separators.repetition) : [value];
    return parts.map((p) => p.trim()).filter((p) => p !== '');
  }

  /** "segment 12 (EB)", the way error messages name a segment. */
  get label(): string {
    return `segment ${this.position} (${this.id})`;
  }

  /** Element `n`, which the implementation guide requires: an error naming it when blank. */
  required(n: number): string {
    const value = this.el(n);
    if (value === '') throw this.error(`${this.id}${pad2(n)} is required but empty`);
    return value;
  }

  error(message: string): X12ParseError {
    return new X12ParseError(`X12 ${this.label}: ${message}`);
  }

  toString(): string {
    return this.elements.join(this.separators.element);
  }
}

/** "03" for element 3, the way X12 names elements (NM103). */
export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
