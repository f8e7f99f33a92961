import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

// Standard PDF fonts encode WinAnsi only ("—" printed as `?`): DejaVu covers what names and
// addresses hold. Read once; see fonts/README.md for the source and licence.
const FONT_DIR = join(__dirname, 'fonts');
let fontBytes: { regular: Buffer; bold: Buffer } | null = null;

/** The bytes of the house's two fonts (DejaVu Sans Condensed, regular and bold). */
export function fonts(): { regular: Buffer; bold: Buffer } {
  fontBytes ??= {
    regular: readFileSync(join(FONT_DIR, 'DejaVuSansCondensed.ttf')),
    bold: readFileSync(join(FONT_DIR, 'DejaVuSansCondensed-Bold.ttf')),
  };
  return fontBytes;
}

/** Both fonts embedded in `doc`, only the glyphs it uses (subset). */
export async function embedFonts(doc: PDFDocument): Promise<{ regular: PDFFont; bold: PDFFont }> {
  doc.registerFontkit(fontkit);
  const f = fonts();
  return {
    regular: await doc.embedFont(f.regular, { subset: true }),
    bold: await doc.embedFont(f.bold, { subset: true }),
  };
}
