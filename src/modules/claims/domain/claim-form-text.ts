import { PDFFont, PDFPage, rgb } from 'pdf-lib';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import type { ClaimPersonResponse } from '../api/dto/claim-parts.response';

// The house's fonts (DejaVu: names and addresses as typed, not only WinAnsi), shared with the
// other PDFs (src/lib/pdf).
export { fonts } from '@/lib/pdf';

export const WIDTH = 612; // US Letter, points
export const HEIGHT = 792;
export const LEFT = 18;
export const RIGHT = 594;
/** The form's own drawing in "drop-out" red, which payers' scanners ignore; the data in black. */
export const FORM = rgb(0.78, 0.12, 0.16);
const INK = rgb(0, 0, 0);
const SHADE = rgb(0.98, 0.9, 0.9);

/** Drawing on the page in the form's coordinates: `top` measured down from the page's top. */
export class Sheet {
  constructor(
    readonly page: PDFPage,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {}

  box(x1: number, top: number, x2: number, height: number, fill = false) {
    this.page.drawRectangle({
      x: x1,
      y: HEIGHT - top - height,
      width: x2 - x1,
      height,
      borderColor: FORM,
      borderWidth: 0.5,
      color: fill ? SHADE : undefined,
    });
  }

  label(text: string, x: number, top: number, size = 5.2) {
    this.page.drawText(text, { x, y: HEIGHT - top - size, size, font: this.font, color: FORM });
  }

  /** Data, shrunk (never cut) to fit `width`: a scanner reads a small character, not a missing one. */
  data(text: string | null | undefined, x: number, baseline: number, width: number, size = 8.5) {
    const value = (text ?? '').replace(/\s+/g, ' ').trim();
    if (!value) return;
    let s = size;
    while (s > 4 && this.font.widthOfTextAtSize(value, s) > width) s -= 0.25;
    this.page.drawText(value, { x, y: HEIGHT - baseline, size: s, font: this.font, color: INK });
  }

  /** A check box and its caption; `checked` draws the X in it. */
  check(caption: string, x: number, top: number, checked: boolean) {
    this.page.drawRectangle({
      x,
      y: HEIGHT - top - 6,
      width: 6,
      height: 6,
      borderColor: FORM,
      borderWidth: 0.5,
    });
    if (checked)
      this.page.drawText('X', { x: x + 0.8, y: HEIGHT - top - 5.3, size: 6.5, font: this.bold });
    if (caption) this.label(caption, x + 8, top + 0.5);
  }
}

export const fullName = (p: ClaimPersonResponse) =>
  `${p.last_name}, ${p.first_name}`.toUpperCase().trim();
/** `2026-11-14` → `11 14 2026` (8-digit, boxes 3 and 11a) or `11 14 26` (24A). */
export const mdy = (iso: string | null | undefined, digits: 6 | 8 = 8) => {
  if (!iso) return '';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${m} ${d} ${digits === 8 ? y : y.slice(2)}`;
};
export const street = (a: { line1: string; line2?: string | null } | null | undefined) =>
  a ? [a.line1, a.line2].filter(Boolean).join(', ') : '';
export const amount = (value: string) => formatMoney(value, MONEY.bare);
/** Relationship of the patient to the insured (box 6), from the patient's `type`. */
export const RELATIONSHIPS = ['Self', 'Spouse', 'Child', 'Other'] as const;
export function relationshipOf(type: string | null): (typeof RELATIONSHIPS)[number] {
  const t = (type ?? 'self').toLowerCase();
  if (t === 'self') return 'Self';
  if (t === 'spouse') return 'Spouse';
  if (t === 'child' || t === 'dependent' || t === 'student') return 'Child';
  return 'Other';
}
