import { createHash } from 'node:crypto';
import { PDFDocument, PDFFont, PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { BillingProvider } from './claim-billing-provider';
import { lineCharge } from './claim-charges';
import { formatUsd } from './claim-notification';
import type { ClaimPersonResponse, ClaimResponse } from './dto/claim.response';

export interface ClaimFormInput {
  claim: ClaimResponse;
  insurerName: string;
  payerId: string | null;
  provider: BillingProvider | null;
}

const WIDTH = 612; // US Letter, points
const HEIGHT = 792;
const MARGIN = 40;
const GREY = rgb(0.35, 0.35, 0.35);
const LINE = rgb(0.7, 0.7, 0.7);

/** Standard PDF fonts encode WinAnsi only: anything else prints as `?` rather than failing. */
function printable(value: string | null | undefined): string {
  return [...(value ?? '').replace(/\s+/g, ' ')]
    .map((c) => {
      const code = c.charCodeAt(0);
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? c : '?';
    })
    .join('')
    .trim();
}

class Writer {
  y = HEIGHT - MARGIN;

  constructor(
    private readonly page: PDFPage,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {}

  text(value: string, x: number, size = 9, options: { bold?: boolean; maxWidth?: number } = {}) {
    const font = options.bold ? this.bold : this.font;
    let text = printable(value);
    const max = options.maxWidth ?? WIDTH - MARGIN - x;
    while (text.length > 4 && font.widthOfTextAtSize(text, size) > max)
      text = `${text.slice(0, -4)}...`;
    this.page.drawText(text, { x, y: this.y, size, font, color: rgb(0, 0, 0) });
  }

  label(value: string, x: number) {
    this.page.drawText(printable(value).toUpperCase(), {
      x,
      y: this.y + 10,
      size: 6.5,
      font: this.font,
      color: GREY,
    });
  }

  /** One labelled value per column, then the next row. */
  fields(cells: [string, string | null | undefined][], columns = cells.length) {
    const width = (WIDTH - 2 * MARGIN) / columns;
    cells.forEach(([label, value], i) => {
      const x = MARGIN + (i % columns) * width;
      this.label(label, x);
      this.text(value || '-', x, 9.5, { maxWidth: width - 8 });
      if (i % columns === columns - 1 && i < cells.length - 1) this.y -= 24;
    });
    this.y -= 26;
  }

  heading(value: string) {
    this.y -= 4;
    this.text(value, MARGIN, 11, { bold: true });
    this.rule();
    this.y -= 22;
  }

  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 4 },
      end: { x: WIDTH - MARGIN, y: this.y - 4 },
      thickness: 0.6,
      color: LINE,
    });
  }
}

const name = (p: ClaimPersonResponse) => `${p.first_name} ${p.last_name}`;
const address = (p: ClaimPersonResponse) =>
  p.address
    ? [
        p.address.line1,
        p.address.line2,
        `${p.address.city}, ${p.address.state} ${p.address.zipcode}`,
      ]
        .filter(Boolean)
        .join(', ')
    : null;

/**
 * The printable claim form (CONTRACT §12): one US Letter page holding the claim code, the
 * insurer, the patient, the primary member, the provider, each service (date, codes, diagnoses,
 * units, unit cost, charge), the totals and the amount paid: what an insurer needs to process an
 * out-of-network claim mailed with the receipts.
 */
export async function renderClaimForm(input: ClaimFormInput): Promise<Buffer> {
  // The same claim is often asked for again (the e-mail resent, the page reloaded): the bytes
  // depend on the input alone, so recent forms are kept instead of drawn again.
  const key = createHash('sha256').update(JSON.stringify(input)).digest('hex');
  const cached = recent.get(key);
  if (cached) return cached;
  const pdf = await drawClaimForm(input);
  recent.set(key, pdf);
  if (recent.size > RECENT_FORMS) recent.delete(recent.keys().next().value!);
  return pdf;
}

const RECENT_FORMS = 100;
const recent = new Map<string, Buffer>();

async function drawClaimForm(input: ClaimFormInput): Promise<Buffer> {
  const { claim, provider } = input;
  const doc = await PDFDocument.create();
  doc.setTitle(`Vision claim ${claim.code}`);
  doc.setSubject(`Out-of-network vision claim to ${printable(input.insurerName)}`);
  doc.setCreationDate(new Date(claim.created_at));
  const page = doc.addPage([WIDTH, HEIGHT]);
  const w = new Writer(
    page,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );

  w.text('Out-of-network vision claim form', MARGIN, 16, { bold: true });
  w.text(`Claim code ${claim.code}`, WIDTH - MARGIN - 170, 12, { bold: true, maxWidth: 170 });
  w.y -= 16;
  w.text(
    `Mail this form with the itemized receipts to ${input.insurerName}. Quote claim code ${claim.code} in any question.`,
    MARGIN,
    8.5,
  );
  w.y -= 26;

  w.heading('Insurer');
  w.fields([
    ['Insurer', input.insurerName],
    ['Insurer code', claim.primary_member.insurer_code],
    ['Payer id', input.payerId],
  ]);

  for (const [title, p] of [
    ['Patient', claim.patient],
    ['Primary member (subscriber)', claim.primary_member],
  ] as const) {
    w.heading(title);
    w.fields(
      [
        ['Name', name(p)],
        ['Date of birth', p.dob],
        ['Sex', p.sex],
        ['Relationship', p.type],
        ['Member id', p.member_id],
        ['SSN (last four)', p.ssn_last_four],
        ['Phone', p.phone],
        ['E-mail', p.email],
        ['Address', address(p)],
      ],
      4,
    );
  }

  w.heading('Provider');
  w.fields(
    [
      ['Practice', provider?.organizationName ?? claim.location.title],
      ['Location', `${claim.location.title} (${claim.location.code})`],
      ['NPI', provider?.npi],
      ['Tax id', provider?.taxId],
    ],
    4,
  );

  w.heading('Services');
  const cols = [
    MARGIN,
    MARGIN + 22,
    MARGIN + 90,
    MARGIN + 210,
    MARGIN + 330,
    MARGIN + 370,
    MARGIN + 450,
  ];
  ['#', 'Date', 'Codes', 'Diagnoses', 'Units', 'Unit cost', 'Charge'].forEach((h, i) =>
    w.label(h, cols[i]),
  );
  claim.services.forEach((s, i) => {
    const row = [
      String(i + 1),
      s.date,
      s.codes.join(', '),
      s.diagnosis_codes.join(', '),
      String(s.quantity),
      formatUsd(s.cost),
      formatUsd(lineCharge(s)),
    ];
    row.forEach((v, c) =>
      w.text(v, cols[c], 9.5, { maxWidth: (cols[c + 1] ?? WIDTH - MARGIN) - cols[c] - 6 }),
    );
    w.y -= 16;
  });
  w.rule();
  w.y -= 22;
  w.fields(
    [
      ['Total charges', formatUsd(claim.total_cost)],
      ['Amount paid', formatUsd(claim.paid_amount)],
      ['Benefits assigned to provider', claim.accept_assignment ? 'Yes' : 'No'],
    ],
    3,
  );

  w.heading('Signature');
  w.text(
    'I certify that the services above were received and authorize the release of the information needed to process this claim.',
    MARGIN,
    8,
  );
  w.y -= 34;
  w.text(
    'Signature of patient or primary member: ______________________________   Date: ____________',
    MARGIN,
    9,
  );
  w.y = MARGIN;
  w.text(
    `Claim ${claim.code} - created ${claim.created_at.slice(0, 10)} - ${claim.location.title}`,
    MARGIN,
    7,
  );
  // Without object streams: three times faster to write, and readable by every PDF reader.
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
