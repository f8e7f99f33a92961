import { DateField } from '@/platform/http/validation/fields';
import { isoDate } from '@/platform/kernel/time';
import { LocationCodeField } from '@/modules/accounts';

/**
 * The Schedule page's day and location (docs/api.md, Appointments: the Schedule page), as its
 * query and its forms name them. Absent: today (UTC) and the account's default location.
 */
export class ScheduleDayQuery {
  @DateField({ example: '2026-11-24', description: 'The day, in UTC.' })
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

/** The day's window for the worklist and the sync: [00:00Z, next day's 00:00Z). */
export function dayWindow(date: string): { from: string; to: string } {
  const next = isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000))!;
  return { from: `${date}T00:00:00Z`, to: `${next}T00:00:00Z` };
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
