import { type ControlNumbers, controlNumbers } from '@/lib/x12';
import { describeAaa, insurerName } from '@/modules/insurers';
import type { TaskView } from '@/modules/verification';
import { formatInstant } from '@/platform/kernel/time';
import type { InsurerEntry } from '../../../domain/insurer-entries';
import type { InsurerExchangeEntry } from '../../../run/domain/insurer-exchange-log';

/** The sandbox insurer (docs/api.md, The sandbox insurer): answered inside the service. */
const SANDBOX = 'insurer:demo:vision';

const EVIDENCE_WORDS: Record<string, string> = {
  portal: "on the insurer's provider portal",
  phone: 'by telephone',
  fax: 'by fax',
};

export type Field = readonly [string, string | null];

/** An instant as pages print it ("2026-11-21 13:51 UTC"); null when absent or unreadable. */
export function instant(at: Date | string | null | undefined): string | null {
  if (!at) return null;
  const d = at instanceof Date ? at : new Date(at);
  return Number.isNaN(d.getTime()) ? null : formatInstant(d, 'page');
}

/**
 * How one insurer's answer was had (docs/api.md, Eligibility: the snapshot): by a person, with
 * the evidence they recorded; over X12 through the clearinghouse, named by the control numbers of
 * the 270 sent and the 271 received; or by the sandbox, which asks no one.
 */
export function howChecked(
  code: string,
  entry: InsurerEntry | undefined,
  exchanges: readonly InsurerExchangeEntry[],
  task: TaskView | null,
): Field[] {
  const name = insurerName(code);
  const ref = entry?.verification;
  if (ref && entry.state === 'waiting_for_person')
    return [
      ['Method', `Waiting for a person to check ${name} (assisted verification)`],
      ['Verification task', `${ref.task_id}, due by ${instant(ref.due_by) ?? ref.due_by}`],
    ];
  if (ref) {
    const evidence = task?.evidence ?? null;
    const how = evidence
      ? ` ${Object.hasOwn(EVIDENCE_WORDS, evidence.source) ? EVIDENCE_WORDS[evidence.source] : `(${evidence.source})`}`
      : '';
    return [
      ['Method', `Checked by a person${how} (assisted verification of ${name})`],
      ...(evidence
        ? ([
            ['Reference number', evidence.reference_number],
            ['Representative', evidence.representative],
            ['Checked by them at', instant(evidence.checked_at)],
          ] as Field[])
        : []),
      [
        'Verification task',
        ref.reused
          ? `${ref.task_id} (an earlier check's answer, reused; answered ${instant(ref.checked_at) ?? 'before'})`
          : ref.task_id,
      ],
      ...(task?.failure_reason
        ? ([
            ['Task failed', [task.failure_reason, task.detail].filter(Boolean).join(': ')],
          ] as Field[])
        : []),
    ];
  }
  const call =
    [...exchanges].reverse().find((x) => x.outcome === 'found') ?? exchanges[exchanges.length - 1];
  if (!call) return [['Method', `No call to ${name} is on record`]];
  const sent = controlNumbers(call.request);
  if (sent) {
    return [
      [
        'Method',
        `Electronic: an X12 270 inquiry to ${name} and its 271 answer, through the clearinghouse`,
      ],
      ['270 sent', numbers(sent)],
      ['271 received', numbers(controlNumbers(call.response)) ?? 'no X12 answer'],
      ['Trace number', call.traceNumber],
      ['Asked at', `${instant(call.startedAt)} (attempt ${call.attempt}, ${call.durationMs} ms)`],
    ];
  }
  if (code === SANDBOX && call.url === null)
    return [
      ['Method', `The sandbox answered with its test data: no insurer was asked`],
      ['Asked at', instant(call.startedAt)],
    ];
  return [
    ['Method', call.url ? `A call to ${call.url}` : `Answered inside the service`],
    ['Asked at', instant(call.startedAt)],
  ];
}

function numbers(n: ControlNumbers | null): string | null {
  if (!n) return null;
  return [
    `interchange (ISA13) ${n.interchange}`,
    n.group && `group (GS06) ${n.group}`,
    n.transaction && `transaction (ST02) ${n.transaction}`,
    n.reference && `reference (BHT03) ${n.reference}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * What went wrong with each insurer, in its own words: the entry's detail for one that failed,
 * every failed call's reason and AAA codes, a task's failure. Empty when nothing failed.
 */
export function insurerErrors(
  entries: readonly InsurerEntry[],
  exchanges: readonly InsurerExchangeEntry[],
  tasks: ReadonlyMap<string, TaskView>,
): string[] {
  const out: string[] = [];
  const codes = [
    ...new Set([...entries.map((e) => e.insurer_code), ...exchanges.map((x) => x.insurerCode)]),
  ];
  for (const code of codes) {
    const name = insurerName(code);
    const entry = entries.find((e) => e.insurer_code === code);
    if (entry?.state === 'failed' && entry.detail) out.push(`${name}: ${entry.detail}`);
    for (const x of exchanges) {
      if (x.insurerCode !== code || x.outcome === 'found') continue;
      const aaa = x.aaaCodes.length ? ` AAA ${x.aaaCodes.map(describeAaa).join('; ')}.` : '';
      const why = x.error ?? (x.outcome === 'not_found' ? 'no plan found' : x.outcome);
      out.push(`${name}, attempt ${x.attempt} at ${instant(x.startedAt)}: ${why}.${aaa}`);
    }
    const task = entry?.verification ? tasks.get(entry.verification.task_id) : undefined;
    if (task?.failure_reason)
      out.push(
        `${name}: the person checking reported ${[task.failure_reason, task.detail].filter(Boolean).join(': ')}.`,
      );
  }
  return [...new Set(out.map((s) => s.replace(/\.\./g, '.')))];
}
