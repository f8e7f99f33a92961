import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { readInterchange } from '@/lib/x12/x12.envelope';
import type { Segment } from '@/lib/x12/x12.segment';
import { TRANSACTION } from './x837.guide';
import type { ClaimFacts, FileFacts, LoopRule, SegmentRule, Usage } from './x837.rules';

export type { ClaimFacts } from './x837.rules';

/**
 * An in-project check of an 837P against the loop and segment usage of the 005010X222A1
 * implementation guide: each segment in the loop the guide puts it in, in the guide's order, not
 * repeated more than the guide allows; required segments and loops present; situational ones
 * checked against their condition ("required when ..., otherwise do not send"); anything the
 * guide does not use in a loop is an error. Covers the loops and segments a vision practice's
 * claim uses (and those around them); the independent validator (pyx12) checks the rest.
 */

interface LoopInstance {
  rule: LoopRule;
  parent: LoopInstance | null;
  /** Index of the last segment rule matched; segments only move forward. */
  segmentAt: number;
  /** Index of the last child loop rule opened (-1: none yet). */
  childAt: number;
  segmentCounts: number[];
  childCounts: number[];
  first: Segment | null;
}

const open = (
  rule: LoopRule,
  parent: LoopInstance | null,
  first: Segment | null,
): LoopInstance => ({
  rule,
  parent,
  segmentAt: 0,
  childAt: -1,
  segmentCounts: rule.segments.map(() => 0),
  childCounts: rule.children.map(() => 0),
  first,
});

const matches = (rule: SegmentRule, s: Segment) =>
  rule.id === s.id && (!rule.qualifier || rule.qualifier.includes(s.el(1)));

/**
 * Problems of the 837P `text` against the guide's loop and segment usage, one line each
 * (`2010BA N3 (Subscriber address): required when ...`); empty when it conforms.
 */
export function check837Structure(text: string, facts: ClaimFacts = {}): string[] {
  const interchange = readInterchange(text);
  const problems: string[] = [];
  const [set] = interchange.groups[0]?.transactions ?? [];
  if (!set || set.type !== '837') return ['not an 837 transaction set'];
  if (set.implementationReference !== '005010X222A1')
    problems.push(`ST03 ${set.implementationReference}: expected 005010X222A1`);
  const sbr = set.segments.find((s) => s.id === 'SBR');
  const billing = set.segments.find((s) => s.id === 'NM1' && s.el(1) === '85');
  const file: FileFacts = {
    ...facts,
    patientIsSubscriber: sbr?.el(2) === '18',
    billingProviderIsOrganisation: billing?.el(2) === '2',
  };

  const root = open(TRANSACTION, null, null);
  const instances: LoopInstance[] = [root];
  let current: LoopInstance = root;
  const hlLevels = new Map<string, string>();
  for (const s of set.segments) {
    let placed: LoopInstance | null = null;
    for (let loop: LoopInstance | null = current; loop && !placed; loop = loop.parent)
      placed = place(loop, s, problems);
    if (placed) {
      if (placed !== current && placed.parent && !instances.includes(placed))
        instances.push(placed);
      current = placed;
    }
    if (!placed)
      problems.push(
        `${s.label}: ${s.id}${s.el(1) ? `*${s.el(1)}` : ''} is not used here by 005010X222A1 (in or after loop ${current.rule.id})`,
      );
    if (s.id === 'HL') {
      const parent = s.el(2);
      if (parent && !hlLevels.has(parent))
        problems.push(`${s.label}: HL02 ${parent} is no earlier HL`);
      hlLevels.set(s.el(1), s.el(3));
    }
  }

  for (const loop of instances) {
    const where = loop.first ? ` (${loop.first.label})` : '';
    loop.rule.segments.forEach((r, k) => {
      const problem = usageProblem(r.usage, loop.segmentCounts[k], file);
      if (problem)
        problems.push(
          `${loop.rule.id} ${r.id}${r.qualifier ? `*${r.qualifier[0]}` : ''} (${r.name})${where}: ${problem}`,
        );
    });
    loop.rule.children.forEach((c, k) => {
      const problem = usageProblem(c.usage, loop.childCounts[k], file);
      if (problem)
        problems.push(`loop ${c.id} (${c.name}) under ${loop.rule.id}${where}: ${problem}`);
    });
  }
  checkAmounts(set.segments, problems);
  return problems;
}

/**
 * Places `s` in `loop`: as one of its own segments (at or after the last one, before any child
 * loop began), or as the trigger of one of its child loops (the same or a later one). Answers the
 * loop instance the segment went into, or null when it does not fit here.
 */
function place(loop: LoopInstance, s: Segment, problems: string[]): LoopInstance | null {
  const { rule } = loop;
  if (loop.childAt === -1) {
    // The trigger (k = 0) opens a new instance of the loop, except for the header's BHT.
    const at = rule.segments.findIndex(
      (r: SegmentRule, k: number) =>
        k >= loop.segmentAt && (k > 0 || loop.first === null) && matches(r, s),
    );
    if (at !== -1) {
      loop.segmentAt = at;
      loop.segmentCounts[at]++;
      const r = rule.segments[at];
      if (loop.segmentCounts[at] > r.max)
        problems.push(`${rule.id} ${s.id} (${r.name}) ${s.label}: more than ${r.max}`);
      checkSegment(rule, r, s, problems);
      return loop;
    }
  }
  const j = rule.children.findIndex(
    (c: LoopRule, k: number) =>
      k >= Math.max(loop.childAt, 0) && matches(c.segments[0], s) && triggers(c, s),
  );
  if (j === -1) return null;
  loop.childAt = j;
  loop.childCounts[j]++;
  const child = rule.children[j];
  if (loop.childCounts[j] > child.max)
    problems.push(`loop ${child.id} (${child.name}) ${s.label}: more than ${child.max}`);
  const instance = open(child, loop, s);
  instance.segmentCounts[0] = 1;
  checkSegment(child, child.segments[0], s, problems);
  return instance;
}

/** HL loops are told apart by HL03, the level code. */
function triggers(rule: LoopRule, s: Segment): boolean {
  if (s.id !== 'HL') return true;
  return (
    ({ '2000A': '20', '2000B': '22', '2000C': '23' } as Record<string, string>)[rule.id] === s.el(3)
  );
}

function checkSegment(loop: LoopRule, rule: SegmentRule, s: Segment, problems: string[]): void {
  const problem = rule.check?.(s);
  if (problem) problems.push(`${loop.id} ${s.id} (${rule.name}) ${s.label}: ${problem}`);
}

function usageProblem(usage: Usage, count: number, facts: FileFacts): string | null {
  if (usage.kind === 'required') return count === 0 ? 'required, missing' : null;
  const required = usage.when(facts);
  if (required === true && count === 0) return `missing: ${usage.condition}`;
  if (required === false && !usage.sendOtherwise && count > 0)
    return `sent, but ${usage.condition}`;
  return null;
}

/** CLM02 is the sum of the lines' SV102; every SV107 pointer points to an HI code. */
function checkAmounts(segments: readonly Segment[], problems: string[]): void {
  const clm = segments.find((s) => s.id === 'CLM');
  const hi = segments.find((s) => s.id === 'HI' && s.components(1)[0] === 'ABK');
  const lines = segments.filter((s) => s.id === 'SV1');
  if (!clm || !hi) return;
  const minor = (v: string) => (/^\d+(\.\d+)?$/.test(v) ? toMinor(v) : -1n);
  const sum = lines.reduce((total, s) => total + minor(s.el(2)), 0n);
  if (sum !== minor(clm.el(2)))
    problems.push(`2300 CLM02 ${clm.el(2)} is not the sum of the lines' SV102 (${fromMinor(sum)})`);
  const diagnoses = hi.elements.slice(1).filter((e) => e !== '').length;
  for (const s of lines)
    if (s.components(7).some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > diagnoses))
      problems.push(`2400 SV1 ${s.label}: SV107 points past the ${diagnoses} HI codes`);
}
