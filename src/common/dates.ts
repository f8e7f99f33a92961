/** ISO 8601 with an explicit UTC offset (docs/api.md, Conventions): `2026-11-21T13:51:16.926+00:00`. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/** A PostgreSQL `date` value (string `YYYY-MM-DD` or Date) as `YYYY-MM-DD`. */
export function isoDate(d: string | Date | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);
}
