import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { readInterchange, type TransactionSet } from './x12.envelope';
import type { Segment } from './x12.segment';
import { amount, readPlb } from './x835.segments';
import { x12Amount } from './x837.parts';

/** The account a CLP01 (our claim code) belongs to, or null: no claim the service knows. */
type OwnerOf = (patientControlNumber: string) => string | null;

interface ClaimLoop {
  clp01: string;
  /** CLP04 in minor units. */
  paid: bigint;
  segments: Segment[];
}

/** Loop 2000: LX (absent when the payer sent CLPs without it), TS3/TS2, its claims. */
interface HeaderNumberLoop {
  lx: Segment | null;
  totals: Segment[];
  claims: ClaimLoop[];
}

interface SetLoops {
  /** BPR to the last segment of loop 1000B. */
  header: Segment[];
  loops: HeaderNumberLoop[];
  /** PLB segments (and anything the payer put after them). */
  trailer: Segment[];
}

/**
 * Who gets a transaction set's provider adjustments (PLB): the one account whose claims the set
 * pays. With claims of several accounts, or of none, PLB names no account the service can tell
 * apart (PLB01 is the payee's), so it stays with the operator.
 */
export function providerAdjustmentOwner(owners: (string | null)[]): string | null {
  const accounts = new Set(owners.filter((o) => o !== null));
  return accounts.size === 1 ? [...accounts][0] : null;
}

/**
 * Splits an 835 interchange (005010X221A1) into one interchange per account: the same ISA, GS,
 * ST and header loops (BPR, TRN, DTM, 1000A payer, 1000B payee), only the 2100 claim loops of
 * that account's claims, under their LX, with SE01, GE01 and IEA01 counted again. A set none of
 * whose claims are the account's is left out, a group with no set left too. TS3/TS2 total their
 * LX loop's claims, so they stay only where the account has every claim of the loop; PLB goes
 * with `providerAdjustmentOwner`. Where the part is not the whole set, BPR02 becomes the part's
 * own total (its CLP04s less its PLB amounts), so each part balances and tells nothing of the
 * others'. CLPs owned by no account appear in no part. The text must have been read by
 * `readClaimReport` first.
 */
export function split835(text: string, ownerOf: OwnerOf): Map<string, string> {
  const interchange = readInterchange(text, { mode: 'report' });
  const sep = interchange.separators;
  const end = sep.segment + lineBreakAfterSegments(text, sep.segment);
  const line = (elements: readonly string[]) => elements.join(sep.element) + end;
  const groupsOf = new Map<string, string[]>();
  for (const group of interchange.groups) {
    const setsOf = new Map<string, string[]>();
    for (const set of group.transactions) {
      const loops = loopsOf(set);
      const owners = loops.loops.flatMap((l) => l.claims.map((c) => ownerOf(c.clp01)));
      const plbOwner = providerAdjustmentOwner(owners);
      for (const account of new Set(owners)) {
        if (account === null) continue;
        const body = partOfSet(loops, (c) => ownerOf(c.clp01) === account, plbOwner === account);
        const lines = [set.st, ...body].map((s) => (Array.isArray(s) ? line(s) : line(s.elements)));
        lines.push(line(['SE', String(body.length + 2), set.controlNumber]));
        setsOf.set(account, [...(setsOf.get(account) ?? []), lines.join('')]);
      }
    }
    for (const [account, sets] of setsOf) {
      const gs = line(group.gs.elements) + sets.join('');
      const ge = line(['GE', String(sets.length), group.controlNumber]);
      groupsOf.set(account, [...(groupsOf.get(account) ?? []), gs + ge]);
    }
  }
  const parts = new Map<string, string>();
  for (const [account, groups] of groupsOf) {
    const iea = line(['IEA', String(groups.length), interchange.isa.controlNumber]);
    parts.set(account, line(interchange.isaSegment.elements) + groups.join('') + iea);
  }
  return parts;
}

function loopsOf(set: TransactionSet): SetLoops {
  const out: SetLoops = { header: [], loops: [], trailer: [] };
  let loop: HeaderNumberLoop | null = null;
  let claim: ClaimLoop | null = null;
  for (const s of set.segments) {
    if (s.id === 'PLB' || out.trailer.length > 0) {
      out.trailer.push(s);
    } else if (s.id === 'LX') {
      loop = { lx: s, totals: [], claims: [] };
      out.loops.push(loop);
      claim = null;
    } else if (s.id === 'CLP') {
      if (!loop) {
        loop = { lx: null, totals: [], claims: [] };
        out.loops.push(loop);
      }
      claim = { clp01: s.required(1), paid: toMinor(amount(s, 4)), segments: [s] };
      loop.claims.push(claim);
    } else if (claim) claim.segments.push(s);
    else if (loop) loop.totals.push(s);
    else out.header.push(s);
  }
  return out;
}

/** The set's body (ST and SE aside) with only the claims `keep` keeps; a changed BPR as elements. */
function partOfSet(
  set: SetLoops,
  keep: (c: ClaimLoop) => boolean,
  keepProviderAdjustments: boolean,
): (Segment | string[])[] {
  const body: Segment[] = [];
  let kept = 0;
  let paid = 0n;
  let claims = 0;
  for (const loop of set.loops) {
    claims += loop.claims.length;
    const mine = loop.claims.filter(keep);
    if (mine.length === 0) continue;
    if (loop.lx) body.push(loop.lx);
    if (mine.length === loop.claims.length) body.push(...loop.totals);
    for (const c of mine) {
      body.push(...c.segments);
      paid += c.paid;
    }
    kept += mine.length;
  }
  const trailer = keepProviderAdjustments ? set.trailer : [];
  body.push(...trailer);
  const [bpr, ...header] = set.header;
  if (kept === claims && trailer.length === set.trailer.length) return [bpr, ...header, ...body];
  const adjusted = trailer
    .filter((s) => s.id === 'PLB')
    .flatMap(readPlb)
    .reduce((total, p) => total - toMinor(p.amount), paid);
  const elements = [...bpr.elements];
  elements[2] = x12Amount(fromMinor(adjusted));
  return [elements, ...header, ...body];
}

/** The line break the sender put after each segment terminator (none, `\n` or `\r\n`). */
function lineBreakAfterSegments(text: string, terminator: string): string {
  const at = text.indexOf(terminator);
  return /^\r?\n/.exec(text.slice(at + 1))?.[0] ?? '';
}
