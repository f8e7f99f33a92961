import type { InsurerCode } from './insurer-codes';

/**
 * Where a paper claim (the CMS-1500 a patient mails, docs/api.md, Errors) goes: each known insurer's
 * out-of-network claims mailing address, as the insurer or a plan document printed it.
 *
 * Gathered 2026-11-24 from public pages (no insurer publishes these as data; each entry names the
 * page it was read from). Payers move their P.O. boxes: an account that knows a newer address (its
 * plan's claim form, the member's ID card) overrides it on the web Insurers page, and the override
 * is what the form and the e-mail print.
 */
interface ClaimsMailingAddress {
  /** The payer as it should appear on the envelope. */
  payer: string;
  /** The address lines under the payer's name (attention line, P.O. box), without city line. */
  lines: readonly string[];
  city: string;
  state: string;
  zipcode: string;
  /** The public page the address was read from, and when. */
  source: string;
}

export const CLAIMS_MAILING_ADDRESSES: Readonly<Record<InsurerCode, ClaimsMailingAddress>> = {
  'insurer:demo:vision': {
    payer: 'Demo Vision (sandbox)',
    lines: ['Attn: Sandbox Claims', '100 Example Way'],
    city: 'Austin',
    state: 'TX',
    zipcode: '78701',
    source: 'Not a real payer: the sandbox insurer of this service, for tests and demos.',
  },
  'insurer:vision:vsp': {
    payer: 'Vision Service Plan (VSP)',
    lines: ['Attn: Claims Services', 'P.O. Box 495918'],
    city: 'Cincinnati',
    state: 'OH',
    zipcode: '45249-5918',
    source:
      'WA PEBB 2024 UMP Plus certificate of coverage, "VSP Claims" (relayto.com, read 2026-11-24). ' +
      'The page prints the box as 459918; the ZIP+4 45249-5918 matches box 495918. Older plan ' +
      'documents name P.O. Box 997105, Sacramento, CA 95899-7105 and P.O. Box 385018, ' +
      'Birmingham, AL 35238-5018.',
  },
  'insurer:vision:eye_med': {
    payer: 'EyeMed Vision Care',
    lines: ['Attn: OON Claims', 'P.O. Box 8504'],
    city: 'Mason',
    state: 'OH',
    zipcode: '45040-7111',
    source:
      'eyemed.com/en-us/out-of-network-claims (the same box for Medicare members) and employer ' +
      'plan pages (milamhctf.com), read 2026-11-24.',
  },
  'insurer:vision:spectera': {
    payer: 'UnitedHealthcare Vision (Spectera)',
    lines: ['Attn: Claims Department', 'P.O. Box 30978'],
    city: 'Salt Lake City',
    state: 'UT',
    zipcode: '84130',
    source:
      'UnitedHealthcare vision benefit summaries (online.flipbuilder.com Lockton newsletter) and ' +
      '1-800 CONTACTS out-of-network claim form instructions (fill.io), read 2026-11-24.',
  },
  'insurer:vision:davis_vision': {
    payer: 'Davis Vision',
    lines: ['Vision Care Processing Unit', 'P.O. Box 1525'],
    city: 'Latham',
    state: 'NY',
    zipcode: '12110',
    source:
      'City of Dallas vision benefits page (dallascityhall.com) and Research Foundation of SUNY ' +
      '(portal.rfsuny.org), read 2026-11-24.',
  },
  'insurer:vision:superior': {
    payer: 'Superior Vision',
    lines: ['Attn: Claims Processing', 'P.O. Box 967'],
    city: 'Rancho Cordova',
    state: 'CA',
    zipcode: '95741',
    source:
      '1-800 CONTACTS out-of-network claim form instructions, "Claims Mailing Addresses" ' +
      '(fill.io), read 2026-11-24; not confirmed on superiorvision.com.',
  },
  'insurer:vision:cigna_vision': {
    payer: 'Cigna Vision',
    lines: ['P.O. Box 385018'],
    city: 'Birmingham',
    state: 'AL',
    zipcode: '35238-5018',
    source:
      'An optical store\'s reimbursement guide (thevisionparlor.com/pages/davisvision, "CignaVision"), ' +
      "read 2026-11-24; Cigna Vision plans serviced by EyeMed mail to EyeMed's box instead: check " +
      "the member's claim form.",
  },
  'insurer:vision:aetna_vision': {
    payer: 'Aetna Vision (EyeMed)',
    lines: ['Attn: OON Claims', 'P.O. Box 8504'],
    city: 'Mason',
    state: 'OH',
    zipcode: '45040-7111',
    source:
      '1-800 CONTACTS out-of-network claim form instructions: "EyeMed Vision Care (same for Aetna ' +
      'Vision)" (fill.io), read 2026-11-24.',
  },
  'insurer:vision:blue_view': {
    payer: 'Blue View Vision',
    lines: ['Attn: OON Claims', 'P.O. Box 8504'],
    city: 'Mason',
    state: 'OH',
    zipcode: '45040-7111',
    source:
      'Blue View Vision out-of-network claim form, "Mail To" (studylib.net), read 2026-11-24.',
  },
};

/** The address as lines an envelope carries: payer, attention/box lines, `City, ST ZIP`. */
export function mailingLines(a: ClaimsMailingAddress): string[] {
  return [a.payer, ...a.lines, `${a.city}, ${a.state} ${a.zipcode}`];
}
