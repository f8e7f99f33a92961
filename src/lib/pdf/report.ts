import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { embedFonts } from './fonts';
import { clean, wrapText } from './wrap';

/** US Letter in points, as the claim form. */
export const LETTER = { width: 612, height: 792 } as const;
const MARGIN = 40;
const BOTTOM = 44;
const INK = rgb(0, 0, 0);
const MUTED = rgb(0.33, 0.33, 0.33);
const RULE = rgb(0.72, 0.72, 0.72);
const SHADE = rgb(0.92, 0.92, 0.92);

/** One column of a table: its heading, its width in points, and how its cells align. */
export interface ReportColumn {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** One row of a table: a cell per column ('\n' starts a line), the first cell indented. */
export interface ReportRow {
  cells: string[];
  indent?: number;
}

/** The most lines one table cell prints (a row never grows past a page). */
const MAX_CELL_LINES = 24;

/**
 * A document for a person to read (not a form): a title, headings, label/value fields,
 * paragraphs and tables flowing down US Letter pages. A table that reaches the bottom of a page
 * goes on on the next one under its headings again; a heading is never left alone at the foot of
 * a page; every page is numbered ("Page 2 of 3") under a footer line.
 */
export class Report {
  private page!: PDFPage;
  private top = MARGIN;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly footer: string,
  ) {
    this.newPage();
  }

  static async create(meta: {
    title: string;
    subject: string;
    createdAt: Date;
    /** Printed at the foot of every page, before the page number. */
    footer: string;
  }): Promise<Report> {
    const doc = await PDFDocument.create();
    doc.setTitle(meta.title);
    doc.setSubject(meta.subject);
    doc.setCreationDate(meta.createdAt);
    doc.setModificationDate(meta.createdAt);
    const { regular, bold } = await embedFonts(doc);
    return new Report(doc, regular, bold, meta.footer);
  }

  /** The width text may take between the margins. */
  get width(): number {
    return LETTER.width - 2 * MARGIN;
  }

  title(text: string, subtitle?: string): void {
    this.lines([text], this.bold, 16, INK, 20);
    if (subtitle)
      this.lines(this.wrap(subtitle, this.regular, 9, this.width), this.regular, 9, MUTED, 12);
    this.top += 6;
  }

  /** A section heading with a rule under it, kept with what follows. */
  heading(text: string): void {
    this.room(60);
    this.top += 8;
    this.lines([text], this.bold, 11.5, INK, 15);
    this.rule(this.top);
    this.top += 5;
  }

  /** Label and value pairs, one a line; a long value wraps beside its label. A null value: "—". */
  fields(pairs: readonly (readonly [string, string | null])[], labelWidth = 118): void {
    const size = 9;
    const lineHeight = 11.5;
    for (const [label, value] of pairs) {
      const lines = this.wrap(value ?? '—', this.regular, size, this.width - labelWidth);
      this.room(lines.length * lineHeight);
      this.text(label, MARGIN, this.top, this.bold, size, MUTED);
      lines.forEach((line, i) =>
        this.text(line, MARGIN + labelWidth, this.top + i * lineHeight, this.regular, size, INK),
      );
      this.top += lines.length * lineHeight;
    }
    this.top += 2;
  }

  paragraph(text: string, options: { size?: number; muted?: boolean; indent?: number } = {}): void {
    const { size = 9, indent = 0 } = options;
    const lines = this.wrap(text, this.regular, size, this.width - indent);
    this.lines(lines, this.regular, size, options.muted ? MUTED : INK, size * 1.3, indent);
    this.top += 2;
  }

  /** Items, each after a bullet, wrapped under their first word. */
  bullets(items: readonly string[], size = 9): void {
    for (const item of items) {
      const lines = this.wrap(item, this.regular, size, this.width - 10);
      this.room(Math.min(lines.length, 3) * size * 1.3);
      this.text('•', MARGIN, this.top, this.regular, size, INK);
      this.lines(lines, this.regular, size, INK, size * 1.3, 10);
    }
    this.top += 2;
  }

  /** A table whose header row is shaded and repeated on every page the table reaches. */
  table(columns: readonly ReportColumn[], rows: readonly ReportRow[], size = 7.5): void {
    const pad = 3;
    const lineHeight = size * 1.3;
    const cellLines = (text: string, column: ReportColumn, indent: number) => {
      const lines = this.wrap(text, this.regular, size, column.width - 2 * pad - indent);
      return lines.length > MAX_CELL_LINES
        ? [...lines.slice(0, MAX_CELL_LINES - 1), `${lines[MAX_CELL_LINES - 1]} …`]
        : lines;
    };
    const header = () => {
      const lines = columns.map((c) => this.wrap(c.title, this.bold, size, c.width - 2 * pad));
      const height = Math.max(...lines.map((l) => l.length)) * lineHeight + 2 * pad;
      this.room(height + lineHeight + 2 * pad);
      this.page.drawRectangle({
        x: MARGIN,
        y: LETTER.height - this.top - height,
        width: columns.reduce((w, c) => w + c.width, 0),
        height,
        color: SHADE,
      });
      this.cells(columns, lines, this.bold, size, pad, 0);
      this.top += height;
    };
    header();
    for (const row of rows) {
      const lines = columns.map((c, i) =>
        cellLines(row.cells[i] ?? '', c, i === 0 ? (row.indent ?? 0) : 0),
      );
      const height = Math.max(...lines.map((l) => l.length)) * lineHeight + 2 * pad;
      if (this.top + height > LETTER.height - BOTTOM) {
        this.newPage();
        header();
      }
      this.cells(columns, lines, this.regular, size, pad, row.indent ?? 0);
      this.top += height;
      this.rule(
        this.top,
        columns.reduce((w, c) => w + c.width, 0),
      );
    }
    this.top += 6;
  }

  /** The document's bytes, each page numbered. */
  async save(): Promise<Buffer> {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      const y = BOTTOM - 22;
      page.drawLine({
        start: { x: MARGIN, y: y + 10 },
        end: { x: LETTER.width - MARGIN, y: y + 10 },
        thickness: 0.4,
        color: RULE,
      });
      const number = `Page ${i + 1} of ${pages.length}`;
      const small = { y, size: 7, font: this.regular, color: MUTED };
      page.drawText(clean(this.footer), { x: MARGIN, ...small });
      const width = this.regular.widthOfTextAtSize(number, 7);
      page.drawText(number, { x: LETTER.width - MARGIN - width, ...small });
    });
    // Without object streams, like the claim form: readable by every PDF reader.
    return Buffer.from(await this.doc.save({ useObjectStreams: false }));
  }

  private newPage(): void {
    this.page = this.doc.addPage([LETTER.width, LETTER.height]);
    this.top = MARGIN;
  }

  /** A new page unless `height` more points fit on this one. */
  private room(height: number): void {
    if (this.top + height > LETTER.height - BOTTOM && this.top > MARGIN) this.newPage();
  }

  private cells(
    columns: readonly ReportColumn[],
    lines: string[][],
    font: PDFFont,
    size: number,
    pad: number,
    indent: number,
  ): void {
    let x = MARGIN;
    columns.forEach((column, i) => {
      const shift = i === 0 ? indent : 0;
      lines[i].forEach((line, n) => {
        const top = this.top + pad + n * size * 1.3;
        const width = font.widthOfTextAtSize(line, size);
        const left = column.align === 'right' ? x + column.width - pad - width : x + pad + shift;
        this.text(line, left, top, font, size, INK);
      });
      x += column.width;
    });
  }

  /** Each line at `indent` from the margin, on a new page when it does not fit. */
  private lines(
    lines: string[],
    font: PDFFont,
    size: number,
    color: typeof INK,
    height: number,
    indent = 0,
  ) {
    for (const line of lines) {
      this.room(height);
      this.text(line, MARGIN + indent, this.top, font, size, color);
      this.top += height;
    }
  }

  private rule(top: number, width = this.width): void {
    const y = LETTER.height - top;
    this.page.drawLine({
      start: { x: MARGIN, y },
      end: { x: MARGIN + width, y },
      thickness: 0.4,
      color: RULE,
    });
  }

  /** `text` with its top at `top` (points down from the page's top). */
  private text(text: string, x: number, top: number, font: PDFFont, size: number, color = INK) {
    if (!text) return;
    const y = LETTER.height - top - size * 0.95;
    this.page.drawText(text, { x, y, size, font, color });
  }

  /** `text` in lines no wider than `width`: its own lines first, then between words. */
  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    return wrapText(text, (s) => font.widthOfTextAtSize(s, size), width);
  }
}
