import { DateField } from '@/platform/http/validation/fields';
import { formatInstant, isoDate } from '@/platform/kernel/time';
import { LocationCodeField } from '@/modules/accounts';

/**
 * The Schedule page's day and location (docs/api.md, Appointments: the Schedule page), as its
 * query and its forms name them. Absent: today and the account's default location.
 */
export class ScheduleDayQuery {
  @DateField({
    example: '2026-11-24',
    description: "The day, in the location's time zone (UTC when it names none).",
  })
  date?: string | null;

  @LocationCodeField("A location of the account (its code); unknown → the worklist's field error.")
  location?: string | null;
}

/** The day and location as typed (a query's, or the hidden fields of the page's forms). */
export interface DayFields {
  date?: string;
  location?: string;
}

/** A query's or a form's day and location: strings only (a repeated parameter is dropped). */
export function dayFields(input: Record<string, unknown>): DayFields {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { date: text(input.date), location: text(input.location) };
}

/**
 * The day's window for the worklist and the sync: from its midnight to the next one in
 * `timeZone` (a day of 23 or 25 hours where the clocks change), else [00:00Z, next day's 00:00Z).
 */
export function dayWindow(date: string, timeZone?: string | null): { from: string; to: string } {
  const next = isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000))!;
  if (!timeZone) return { from: `${date}T00:00:00Z`, to: `${next}T00:00:00Z` };
  const at = (d: string) => formatInstant(midnightIn(d, timeZone), 'utc');
  return { from: at(date), to: at(next) };
}

/** The date it is at `now` in `timeZone` (YYYY-MM-DD). */
export function todayIn(now: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
}

/** Minutes east of UTC that `timeZone`'s clocks show at the instant `ms`. */
function offsetAt(timeZone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const shown = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return Math.round((shown - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant (ms) `date` begins in `timeZone`. */
function midnightIn(date: string, timeZone: string): number {
  const utc = Date.parse(`${date}T00:00:00Z`);
  const guess = utc - offsetAt(timeZone, utc) * 60_000;
  return utc - offsetAt(timeZone, guess) * 60_000;
}

/** The day before or after `date`, for the page's links. */
export function dayAfter(date: string, days: number): string {
  return isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000))!;
}

/** The page's own address for a day and location (what its forms send the browser back to). */
export function dayUrl(fields: DayFields): string {
  const query = new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ).toString();
  return query ? `/app/schedule/?${query}` : '/app/schedule/';
}
