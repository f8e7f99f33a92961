import { insurerName } from '@/modules/insurers';
import type { InsurerOutcome, TaskRef } from './search-outcome';

/** docs/api.md, Universal Search insurer by insurer: an insurer's state in an answer. */
export const INSURER_STATES = [
  'queued',
  'running',
  'found',
  'no_plan',
  'failed',
  'waiting_for_person',
  'not_asked',
] as const;
export type InsurerState = (typeof INSURER_STATES)[number];

/** Each insurer's state in words (docs/api.md, Universal Search insurer by insurer), for pages and prints. */
export const INSURER_STATE_WORDS: Record<InsurerState, string> = {
  queued: 'Waiting to be asked',
  running: 'Being asked',
  found: 'Plan found',
  no_plan: 'No plan found',
  failed: 'Could not be checked',
  waiting_for_person: 'A person is checking',
  not_asked: 'Not asked',
};

/**
 * The insurers a person is still checking (`waiting_for_person`), by name in request order and
 * in words ("VSP Vision Care and EyeMed"); null when none is. A `complete` answer of a
 * `wait_for: "electronic"` search may still wait for them: pages and prints say so, not "no plan".
 */
export function stillCheckedBy(entries: readonly Pick<InsurerEntry, 'insurer_code' | 'state'>[]) {
  const names = entries
    .filter((e) => e.state === 'waiting_for_person')
    .map((e) => insurerName(e.insurer_code));
  if (names.length === 0) return null;
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** One entry of an answer's `insurers`, in the API's key order. */
export interface InsurerEntry {
  insurer_code: string;
  state: InsurerState;
  result_ids: number[];
  /** A sentence without patient data: why it failed, why it was not asked, whom it waits for. */
  detail: string | null;
  finished_at: string | null;
  verification: TaskRef | null;
}

/** What an entry is made from: the insurer's outcome so far (none: not answered yet). */
export interface EntrySource {
  code: string;
  outcome: InsurerOutcome | undefined;
  /** Whether the search has run at least once (an unanswered insurer is then `running`). */
  started: boolean;
  /** The ids of this insurer's results in the answer. */
  resultIds: number[];
  /** When it settled, for outcomes that carry no time of their own (now, when finishing). */
  finishedAt: string | null;
}

/** The detail of a not-asked assisted insurer when an active plan was found elsewhere. */
export const activeElsewhere = (code: string) =>
  `An active plan was found with ${insurerName(code)}.`;

/** The detail of an insurer not waited for once `first_active` had its plan. */
export const notWaitedFor = (code: string) =>
  `Not waited for: an active plan was found with ${insurerName(code)}.`;

/** The detail of an assisted insurer a request asked no person for (`assisted: never`). */
export const noPersonAsked = (code: string) =>
  `${insurerName(code)} is answered by a person, and this request asked for none (assisted: never).`;

/** One entry (docs/api.md, Universal Search insurer by insurer). */
export function insurerEntry(source: EntrySource): InsurerEntry {
  const { code, outcome } = source;
  const entry = (
    state: InsurerState,
    detail: string | null,
    verification: TaskRef | null = null,
    finished = true,
  ): InsurerEntry => ({
    insurer_code: code,
    state,
    result_ids: source.resultIds,
    detail,
    finished_at: finished ? (outcome && 'at' in outcome && outcome.at) || source.finishedAt : null,
    verification,
  });
  const name = insurerName(code);
  switch (outcome?.kind) {
    case undefined:
    case 'deferred':
    case 'held':
      return entry(source.started ? 'running' : 'queued', null, null, false);
    case 'found':
      if (outcome.plans.length === 0)
        return entry('no_plan', `${name} found no plan for this patient.`, outcome.task ?? null);
      return entry('found', null, outcome.task ?? null);
    case 'waiting':
      return entry(
        'waiting_for_person',
        outcome.task
          ? `Waiting for a person to check ${name} (task due by ${outcome.task.due_by}).`
          : `Waiting for a person to check ${name}.`,
        outcome.task ?? null,
        false,
      );
    case 'not_asked':
      return entry('not_asked', outcome.detail);
    case 'unavailable':
      return entry('failed', outcome.detail ?? `${name} could not be reached.`);
    case 'rejected':
      return entry(
        'failed',
        outcome.detail ?? `${name} refused the practice's set-up.`,
        outcome.task ?? null,
      );
    case 'failed':
      return entry('failed', `${name}'s answer could not be used (it was logged).`);
  }
}

/**
 * Every entry of a request, in its insurer order. `resultIds`: the answer's result ids by
 * insurer code.
 */
export function insurerEntries(
  codes: string[],
  outcomes: Record<string, InsurerOutcome | undefined>,
  started: boolean,
  resultIds: Map<string, number[]>,
  finishedAt: string | null,
): InsurerEntry[] {
  return codes.map((code) =>
    insurerEntry({
      code,
      outcome: outcomes[code],
      started,
      resultIds: resultIds.get(code) ?? [],
      finishedAt,
    }),
  );
}
