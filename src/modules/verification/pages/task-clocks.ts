import { formatInstant } from '@/platform/kernel/time';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A span in a front desk's words: `42 min`, `3 hours 20 min`, `2 days 5 hours` (to the minute,
 * then the hour: a task answered over days is not read to the minute).
 */
export function spanWords(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const rest = minutes % 60;
    return `${plural(Math.floor(minutes / 60), 'hour')}${rest ? ` ${rest} min` : ''}`;
  }
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  return `${plural(days, 'day')}${hours ? ` ${plural(hours, 'hour')}` : ''}`;
}

/**
 * How long the task took from its first claim to its answer (docs/api.md, Verification tasks):
 * `answered 42 min after it was claimed`; null when it was never claimed or is not answered.
 */
export function claimToAnswer(claimedAt: Date | null, answeredAt: Date | null): string | null {
  if (!claimedAt || !answeredAt) return null;
  const ms = new Date(answeredAt).getTime() - new Date(claimedAt).getTime();
  return `answered ${spanWords(ms)} after it was claimed`;
}

/**
 * How often the task's answer served later searches without a new task: `reused for 3 later
 * searches, last on 2026-11-21 13:51 UTC`; null when never.
 */
export function reuseWords(count: number, lastAt: Date | null): string | null {
  if (count <= 0) return null;
  const times = `reused for ${plural(count, 'later search', 'later searches')}`;
  return lastAt ? `${times}, last on ${formatInstant(lastAt, 'page')}` : times;
}
