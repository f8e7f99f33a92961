/**
 * Whether two records name the same person (docs/api.md, Next eligible dates: matching the
 * practice's history): the same date of birth, the same first and last names (case and
 * surrounding spaces aside), and, when both give one, the same member id (case, spaces and
 * punctuation aside). A record without a member id matches on names and date of birth alone.
 */

export interface PersonKey {
  firstName: string;
  lastName: string;
  dob: string;
  memberId?: string | null;
}

/** A name as it is compared (and as patient records keep it: lower case). */
export const nameKey = (name: string): string => name.trim().toLowerCase();

const memberKey = (id: string | null | undefined): string =>
  (id ?? '').toUpperCase().replace(/[^0-9A-Z]/g, '');

export function samePerson(a: PersonKey, b: PersonKey): boolean {
  if (a.dob !== b.dob) return false;
  if (nameKey(a.firstName) !== nameKey(b.firstName)) return false;
  if (nameKey(a.lastName) !== nameKey(b.lastName)) return false;
  const [x, y] = [memberKey(a.memberId), memberKey(b.memberId)];
  return x === '' || y === '' || x === y;
}
