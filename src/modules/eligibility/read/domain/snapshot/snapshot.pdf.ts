import { Report } from '@/lib/pdf';
import type { SnapshotDocument } from './snapshot-content';

/**
 * The snapshot on US Letter pages in the house's fonts (src/lib/pdf, as the claim form): its
 * sections one after the other, the benefit table going on over as many pages as the tree needs,
 * its headings repeated on each.
 */
export async function renderSnapshot(doc: SnapshotDocument, printedAt: Date): Promise<Buffer> {
  const report = await Report.create({
    title: doc.title,
    subject: doc.subtitle,
    createdAt: printedAt,
    footer: doc.footer,
  });
  report.title(doc.title, doc.subtitle);
  for (const section of doc.sections) {
    report.heading(section.heading);
    if (section.fields) report.fields(section.fields);
    for (const note of section.notes ?? []) report.paragraph(note, { size: 8, muted: true });
    if (section.table) report.table(section.table.columns, section.table.rows);
    if (section.bullets) report.bullets(section.bullets);
  }
  return report.save();
}
