import { createHash } from 'node:crypto';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import type { X837Address } from '@/lib/x12';
import type { BillingProvider } from './claim-billing-provider';
import { HEIGHT, Sheet, WIDTH, fonts } from './claim-form-text';
import { drawFormHeading, drawPatientAndInsured } from './cms1500-layout';
import { drawServicesAndProvider } from './cms1500-services';
import type { ClaimResponse } from '../api/dto/claim.response';

export { diagnosisLetters, procedureOf } from './cms1500-services';

export interface ClaimFormInput {
  claim: ClaimResponse;
  insurerName: string;
  payerId: string | null;
  /** Box 33 (with its NPI); null when the location has no NPI. */
  provider: BillingProvider | null;
  /** Box 32: where the services were given (the claim's location). */
  facility: { name: string; address: X837Address | null };
  /** Where the form is mailed, one line each (payer, street or box, `City, ST ZIP`). */
  mailTo: readonly string[];
}

/**
 * The claim on the CMS-1500 (02/12) layout (docs/api.md, Errors): the boxes in drop-out red, each
 * value where a payer's scanner reads it. One US Letter page (at most six services, the form's).
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
  const { claim } = input;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`CMS-1500 claim ${claim.code}`);
  doc.setSubject(`Health insurance claim form (CMS-1500 02/12) to ${input.insurerName}`);
  doc.setCreationDate(new Date(claim.created_at));
  const page = doc.addPage([WIDTH, HEIGHT]);
  const f = fonts();
  const s = new Sheet(
    page,
    await doc.embedFont(f.regular, { subset: true }),
    await doc.embedFont(f.bold, { subset: true }),
  );

  drawFormHeading(s, input);
  const top = drawPatientAndInsured(s, input, 98);
  drawServicesAndProvider(s, input, top);

  // Without object streams: three times faster to write, and readable by every PDF reader.
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
