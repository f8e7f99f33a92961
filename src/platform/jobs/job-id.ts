import { randomUUID } from 'node:crypto';

/**
 * What a Bull job id says after `<job>:<row id>:`, so two wake-ups of one row for different
 * reasons never collapse into one job, and the same one twice does: `a<n>` the n-th attempt
 * (`a0` a row just stored), `r<n>` a search retry, `d<ms>` due at that time, `t<ms>` a claim
 * transition, `w<ms>` woken after a person's answer, `q<ms>` requeued by the sweeper.
 */
export type JobTag = `${'a' | 'r' | 'd' | 't' | 'w' | 'q'}${number}`;

/** The Bull job id of row `id`'s wake-up `tag` on queue job `job` (the only place one is made). */
export function jobId(job: string, id: string, tag: JobTag): string {
  return `${job}:${id}:${tag}`;
}

/** Job tags (JobTag) by meaning. */
export const tags = {
  attempt: (n: number): JobTag => `a${n}`,
  retry: (n: number): JobTag => `r${n}`,
  dueAt: (ms: number): JobTag => `d${ms}`,
  transition: (ms = Date.now()): JobTag => `t${ms}`,
  woken: (ms = Date.now()): JobTag => `w${ms}`,
  requeued: (ms = Date.now()): JobTag => `q${ms}`,
} as const;

/** The id of the `n`-th run of a process's LocalLane of queue job `job` (`lane`: the lane's tag). */
export function laneRun(job: string, lane: string, n: number): string {
  return `${job}:l${lane}.${n}`;
}

/**
 * The run a process stores the first attempts it makes itself leased to (a finished search's
 * webhook deliveries: WebhookOutbox), one per process; they run in its delivery lane.
 */
export function firstAttemptRun(): string {
  return `first:${randomUUID()}`;
}
