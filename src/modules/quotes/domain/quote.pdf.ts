import { type ReportColumn, Report } from '@/lib/pdf';
import { type Location, locationAddress } from '@/modules/accounts';
import { insurerName } from '@/modules/insurers';
import { formatMoney } from '@/platform/kernel/money';
import { formatInstant } from '@/platform/kernel/time';
import type { QuoteBody } from './quotes.service';

/** The words every printed quote carries (docs/api.md, The counter). */
export const NOT_A_GUARANTEE =
  'This is an estimate, not a guarantee of payment: the insurer decides when the claim is paid.';

/** Everything a printed quote shows. */
export interface QuotePage {
  body: QuoteBody;
  location: Location | null;
  patientName: string | null;
  patientAge: number | null;
  planName: string | null;
  insurerCode: string | null;
  dateOfService: string;
  createdAt: Date;
  printedAt: Date;
}

const COLUMNS: readonly ReportColumn[] = [
  { title: 'Item', width: 104 },
  { title: 'Code', width: 36 },
  { title: 'Retail', width: 52, align: 'right' },
  { title: 'Plan covers', width: 52, align: 'right' },
  { title: 'You pay', width: 52, align: 'right' },
  { title: 'Why', width: 236 },
];

const ITEM_WORDS: Record<string, string> = {
  frame: 'Frame',
  lenses: 'Lenses',
  contact_lenses: 'Contact lenses',
  fitting: 'Contact lens fitting',
};
const itemWords = (item: string) =>
  Object.hasOwn(ITEM_WORDS, item) ? ITEM_WORDS[item] : `Lens option: ${item.replace(/_/g, ' ')}`;

const SOURCE_WORDS: Record<string, string> = {
  payer: 'the insurer',
  verifier: 'a verifier of the practice',
  plan_design: "the practice's plan design for the group",
};

/**
 * A quote on one US Letter page for the patient (docs/api.md, The counter): the practice, the
 * patient, the plan, each line with what the plan covers and what the patient pays, the lines
 * the price list does not state, the totals, that it is an estimate and not a guarantee of
 * payment, and the date.
 */
export async function renderQuote(page: QuotePage): Promise<Buffer> {
  const { body, location } = page;
  const title = 'Your quote';
  const subtitle = `What you pay for your order, for the date of service ${page.dateOfService}`;
  const report = await Report.create({
    title,
    subject: subtitle,
    createdAt: page.printedAt,
    footer: `Quote ${body.id} · ${NOT_A_GUARANTEE.split(':')[0]}`,
  });
  report.title(title, subtitle);
  const address = location ? locationAddress(location) : null;
  report.heading('Practice');
  report.fields([
    ['Name', location ? location.organizationName || location.title : null],
    ['NPI', location?.npi ?? null],
    [
      'Address',
      address
        ? `${[address.line1, address.line2, address.city].filter(Boolean).join(', ')}, ${address.state} ${address.zipcode}`
        : null,
    ],
  ]);
  report.heading('Patient and plan');
  report.fields([
    ['Patient', page.patientName],
    ['Age on the date of service', page.patientAge === null ? null : String(page.patientAge)],
    ['Insurer', page.insurerCode ? insurerName(page.insurerCode) : null],
    ['Plan', page.planName],
    ['Price list from', body.materials_source ? SOURCE_WORDS[body.materials_source] : null],
    ['Date of service', page.dateOfService],
  ]);
  report.heading('Your order');
  report.table(
    COLUMNS,
    body.lines.map((l) => ({
      cells: [
        itemWords(l.item),
        l.code ?? '',
        formatMoney(l.retail),
        formatMoney(l.plan_covers),
        formatMoney(l.patient_pays),
        l.reason,
      ],
    })),
    // Small enough that a whole order (every option, contacts in lieu of glasses) fits one page.
    6.5,
  );
  if (body.not_estimable.length > 0) {
    report.paragraph('Not estimated (the plan does not say; left out of the totals):', {
      size: 9,
    });
    report.bullets(
      body.not_estimable.map((l) => `${itemWords(l.item)}, ${formatMoney(l.retail)}: ${l.reason}`),
    );
  }
  for (const note of body.notes) report.paragraph(note, { size: 8, muted: true });
  report.heading('Totals');
  report.fields([
    ['Retail', formatMoney(body.retail)],
    ['Plan covers', formatMoney(body.plan_covers)],
    ['You pay', formatMoney(body.patient_pays)],
  ]);
  report.paragraph(NOT_A_GUARANTEE, { size: 9 });
  report.fields([
    ['Quoted on', formatInstant(page.createdAt, 'page')],
    ['Printed on', formatInstant(page.printedAt, 'page')],
  ]);
  return report.save();
}
