/**
 * How instants and dates are written (docs/architecture.md, Shared idioms): one function per
 * kind, the variant an explicit argument. Every variant is UTC.
 */
type InstantFormat =
  /** The API's JSON (docs/api.md, Conventions): `2026-11-21T13:51:16.926+00:00`. */
  | 'api'
  /** JSON that has always carried a `Z` (verification tasks, insurer exchanges, unmatched remittances): `2026-11-21T13:51:16.926Z`. */
  | 'utc'
  /** The web application's pages, to the minute: `2026-11-21 13:51 UTC`. */
  | 'page'
  /** A form's instant field, to the minute (the verification form's `checked_at`): `2026-11-21T13:51:00Z`. */
  | 'minute';

/** An instant (a Date, or a timestamp as the driver or JSON hands it) in `format`. */
export function formatInstant(at: Date | string | number, format: InstantFormat): string {
  const iso = (at instanceof Date ? at : new Date(at)).toISOString();
  if (format === 'api') return iso.replace('Z', '+00:00');
  if (format === 'page') return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  if (format === 'minute') return `${iso.slice(0, 16)}:00Z`;
  return iso;
}

/** A PostgreSQL `date` value (string `YYYY-MM-DD` or Date) as `YYYY-MM-DD`. */
export function isoDate(d: string | Date | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);
}

/** The UTC calendar date `days` from now (today by default), `YYYY-MM-DD`. */
export function todayIso(days = 0): string {
  return isoDate(new Date(Date.now() + days * 86_400_000))!;
}
