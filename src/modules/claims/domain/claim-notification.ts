import { formatMoney, MONEY } from '@/platform/kernel/money';
import { lineCharge } from './claim-charges';
import type { ClaimPersonResponse } from '../api/dto/claim-parts.response';
import type { ClaimResponse } from '../api/dto/claim.response';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** "145.0000" → "$145.00", "1234.5670" → "$1,234.567": cents always, more only when present. */
const formatUsd = (amount: string) => formatMoney(amount, MONEY.statement);

const fullName = (p: ClaimPersonResponse) => `${p.first_name} ${p.last_name}`;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The e-mail to the patient about a claim (HTML and plain text). A paper claim's tells the patient
 * to print the attached CMS-1500, sign boxes 12 and 13 and mail it with the itemized receipts to
 * `mailTo`; it never says the practice submitted it (docs/api.md, Errors).
 */
export function renderClaimNotification(
  claim: ClaimResponse,
  insurer: string,
  mailTo: readonly string[],
): RenderedMail {
  const patient = fullName(claim.patient);
  const member = fullName(claim.primary_member);
  const practice = claim.location.title;
  const services = claim.services.map((s, i) => ({
    n: i + 1,
    codes: s.codes.join(', '),
    date: s.date,
    quantity: String(s.quantity),
    cost: formatUsd(s.cost),
    charge: formatUsd(lineCharge(s)),
    diagnosis: s.diagnosis_codes.join(', '),
  }));
  const electronic = claim.submission?.channel === 'x12';
  const address = (mailTo.length ? mailTo : [insurer]).join(', ');
  const paid = claim.accept_assignment
    ? `Benefits were assigned to ${practice}: any reimbursement is paid to the practice, which settles the balance with you.`
    : `Any reimbursement is paid by ${insurer} to the primary member, ${member}, as the plan provides (by check or direct deposit).`;
  const steps = electronic
    ? [
        `${insurer} reviews the claim ${practice} sent electronically. You do not need to mail anything.`,
        paid,
        `If ${insurer} needs more information, it contacts you or ${practice}. Please quote claim code ${claim.code} in any question about this claim.`,
      ]
    : [
        'Print the attached claim form (CMS-1500, claim-' + claim.code + '.pdf).',
        `Sign and date box 12 (patient's signature)${claim.patient.type && claim.patient.type !== 'self' ? `, and ask the primary member, ${member}, to sign box 13` : " and box 13 (insured's signature)"}.`,
        // The services table comes before these steps in both the text and the HTML.
        `Put it in an envelope with the itemized receipts for every service listed above (${practice} gives you them: each shows the date, the service and what you paid).`,
        `Mail it to ${address}.`,
        `Keep a copy. ${insurer} usually processes out-of-network claims within 30 days. ${paid}`,
        `Questions: quote claim code ${claim.code} to ${insurer} or to ${practice}.`,
      ];
  const lead = electronic
    ? `${practice} has submitted an out-of-network vision claim for you to ${insurer}.`
    : `${practice} has prepared an out-of-network vision claim for you to ${insurer}. ${insurer} only receives it when you mail it: please follow the steps below.`;
  const subject = electronic
    ? `Your vision claim ${claim.code} was submitted to ${insurer}`
    : `Your vision claim ${claim.code}: please sign and mail the attached form to ${insurer}`;
  const stepsTitle = electronic ? 'What happens next' : 'What to do';

  const rows: [string, string][] = [
    ['Claim code', claim.code],
    ['Patient', `${patient} (born ${claim.patient.dob})`],
    ['Primary member', member],
    ['Insurer', insurer],
    ['Practice', practice],
    ...(electronic ? [] : [['Mail to', address] as [string, string]]),
  ];
  const text = [
    `Hello ${patient},`,
    '',
    lead,
    '',
    ...rows.map(([k, v]) => `${`${k}:`.padEnd(16)}${v}`),
    '',
    'Services',
    ...services.map(
      (s) =>
        `  ${s.n}. ${s.codes} on ${s.date}, quantity ${s.quantity}, unit cost ${s.cost}, charge ${s.charge}` +
        (s.diagnosis ? ` (diagnosis ${s.diagnosis})` : ''),
    ),
    '',
    `${'Total charges:'.padEnd(16)}${formatUsd(claim.total_cost)}`,
    `${'Amount paid:'.padEnd(16)}${formatUsd(claim.paid_amount)}`,
    '',
    stepsTitle,
    ...steps.map((line, i) => (electronic ? `- ${line}` : `${i + 1}. ${line}`)),
    '',
    `This message was sent by ${practice}. Please do not reply to it.`,
    '',
  ].join('\n');

  const e = escapeHtml;
  const cell = 'padding:4px 8px;border-bottom:1px solid #ddd;text-align:left';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:640px">
<p>Hello ${e(patient)},</p>
<p>${e(lead)}</p>
<table style="border-collapse:collapse">
${rows.map(([k, v]) => `<tr><th style="${cell}">${e(k)}</th><td style="${cell}">${e(v)}</td></tr>`).join('\n')}
</table>
<h3>Services</h3>
<table style="border-collapse:collapse">
<tr><th style="${cell}">#</th><th style="${cell}">Codes</th><th style="${cell}">Date</th><th style="${cell}">Quantity</th><th style="${cell}">Unit cost</th><th style="${cell}">Charge</th><th style="${cell}">Diagnosis</th></tr>
${services
  .map(
    (s) =>
      `<tr><td style="${cell}">${s.n}</td><td style="${cell}">${e(s.codes)}</td><td style="${cell}">${e(s.date)}</td>` +
      `<td style="${cell}">${e(s.quantity)}</td><td style="${cell}">${e(s.cost)}</td><td style="${cell}">${e(s.charge)}</td><td style="${cell}">${e(s.diagnosis)}</td></tr>`,
  )
  .join('\n')}
<tr><th style="${cell}" colspan="5">Total charges</th><td style="${cell}">${e(formatUsd(claim.total_cost))}</td><td style="${cell}"></td></tr>
<tr><th style="${cell}" colspan="5">Amount paid</th><td style="${cell}">${e(formatUsd(claim.paid_amount))}</td><td style="${cell}"></td></tr>
</table>
<h3>${e(stepsTitle)}</h3>
<${electronic ? 'ul' : 'ol'}>
${steps.map((line) => `<li>${e(line)}</li>`).join('\n')}
</${electronic ? 'ul' : 'ol'}>
<p style="color:#666;font-size:12px">This message was sent by ${e(practice)}. Please do not reply to it.</p>
</body></html>
`;
  return { subject, text, html };
}
