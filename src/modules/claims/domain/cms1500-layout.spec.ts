import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import type { PDFFont, PDFPageDrawLineOptions, PDFPageDrawRectangleOptions } from 'pdf-lib';
import { HEIGHT, Sheet, WIDTH, fonts } from './claim-form-text';
import { claim, input } from '../../../../test/support/claim-form.fixtures';
import type { ClaimFormInput } from './claim-form.pdf';
import { drawFormHeading, drawPatientAndInsured } from './cms1500-layout';
import { drawServicesAndProvider } from './cms1500-services';

/** A text as drawn: its extent from the font's metrics (advance widths, ascent and descent). */
interface Run {
  text: string;
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}
/** A printed rule: a box's edge or a column line. */
interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

// The regular and bold faces share their vertical metrics (DejaVu Sans Condensed).
const metrics = fontkit.create(fonts().regular) as unknown as {
  ascent: number;
  descent: number;
  unitsPerEm: number;
};

/** Draws the form as renderClaimForm does, recording every text run and every rule. */
async function drawn(form: ClaimFormInput): Promise<{ runs: Run[]; rules: Rule[] }> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const s = new Sheet(
    page,
    await doc.embedFont(fonts().regular),
    await doc.embedFont(fonts().bold),
  );
  const runs: Run[] = [];
  const rules: Rule[] = [];
  page.drawText = (text: string, o: { x: number; y: number; size: number; font: PDFFont }) => {
    const em = o.size / metrics.unitsPerEm;
    const x2 = o.x + o.font.widthOfTextAtSize(text, o.size);
    runs.push({ text, x1: o.x, x2, y1: o.y + metrics.descent * em, y2: o.y + metrics.ascent * em });
  };
  page.drawLine = (o: PDFPageDrawLineOptions) => {
    rules.push({ x1: o.start.x, y1: o.start.y, x2: o.end.x, y2: o.end.y });
  };
  page.drawRectangle = (o: PDFPageDrawRectangleOptions) => {
    const { x = 0, y = 0, width = 0, height = 0 } = o;
    // A check box (6 × 6) holds its own X: only the form's boxes are rules here.
    if (width <= 6 && height <= 6) return;
    rules.push(
      { x1: x, y1: y, x2: x + width, y2: y },
      { x1: x, y1: y + height, x2: x + width, y2: y + height },
    );
    rules.push(
      { x1: x, y1: y, x2: x, y2: y + height },
      { x1: x + width, y1: y, x2: x + width, y2: y + height },
    );
  };
  drawFormHeading(s, form);
  drawServicesAndProvider(s, form, drawPatientAndInsured(s, form, 98));
  return { runs, rules };
}

const EPS = 0.05; // touching is not overlapping
const overlap = (a1: number, a2: number, b1: number, b2: number) =>
  Math.min(a2, b2) - Math.max(a1, b1) > EPS;

/** Six service lines, so every row of box 24 carries data under its headings; box 26 filled. */
const sixLines: ClaimFormInput = {
  ...input,
  claim: {
    ...claim,
    metadata: { account_number: 'CHART-2093187' },
    services: Array.from({ length: 6 }, (_, i) => claim.services[i % claim.services.length]),
  },
};

describe('the CMS-1500 layout', () => {
  it('draws no text over another (box 24 headings included)', async () => {
    const { runs } = await drawn(sixLines);
    const clashes: string[] = [];
    runs.forEach((a, i) =>
      runs.slice(i + 1).forEach((b) => {
        if (overlap(a.x1, a.x2, b.x1, b.x2) && overlap(a.y1, a.y2, b.y1, b.y2))
          clashes.push(`"${a.text}" / "${b.text}"`);
      }),
    );
    expect(clashes).toEqual([]);
  });

  it('draws no text across a rule of the form (each heading inside its column)', async () => {
    const { runs, rules } = await drawn(sixLines);
    const crossing: string[] = [];
    for (const r of runs)
      for (const l of rules) {
        const vertical = l.x1 === l.x2;
        const crosses = vertical
          ? l.x1 > r.x1 + EPS && l.x1 < r.x2 - EPS && overlap(r.y1, r.y2, l.y1, l.y2)
          : l.y1 > r.y1 + EPS && l.y1 < r.y2 - EPS && overlap(r.x1, r.x2, l.x1, l.x2);
        if (crosses) crossing.push(`"${r.text}" at ${vertical ? `x=${l.x1}` : `y=${l.y1}`}`);
      }
    expect(crossing).toEqual([]);
  });
});
