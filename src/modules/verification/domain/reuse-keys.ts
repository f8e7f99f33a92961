import { createHash } from 'node:crypto';
import { withoutAccents } from '@/lib/x12';

/** A person as reuse matches them: names, date of birth (YYYY-MM-DD), member id. */
export interface ReusePerson {
  firstName?: string | null;
  lastName?: string | null;
  dob?: string | null;
  memberId?: string | null;
}

/**
 * Case and spacing do not matter: the text folded (upper then lower case, so that "ß" and "SS"
 * meet; compatibility-normalised first), its runs of spaces made one.
 */
const norm = (v: string) =>
  v.normalize('NFKC').trim().replace(/\s+/g, ' ').toUpperCase().toLowerCase();

/**
 * A name as reuse compares it: as `norm`, its accents dropped as X12 names drop them (`Núñez` =
 * `NUNEZ`), and without its spaces and hyphens (`García-López` = `garcia lopez` = `GARCIALOPEZ`).
 */
const nameNorm = (v: string) =>
  norm(withoutAccents(v.normalize('NFKC'))).replace(/[\s\u2010-\u2015-]+/g, '');

const key = (accountId: string, code: string, parts: string[]) =>
  createHash('sha256')
    .update([accountId, code, ...parts].join('\u0000'))
    .digest('base64url');

/**
 * docs/api.md, Universal Search insurer by insurer (reuse): the keys a person is found by, as
 * hashes of the account, the insurer and the person (never their words): member id, last name and
 * date of birth; first and last name and date of birth. The member id's key holds the last name:
 * someone else sharing a member id and date of birth (a mistyped id, twins on one card) is not
 * given the answer (its tag `ml` also differs from the keys stored before it held the name, which
 * therefore match nothing). `asked`: the keys a search looks up (the member id's alone when it
 * gave one, else the names'); otherwise every key the person has (a task's answer is found by
 * either). Case, spacing, accents and hyphens of names do not matter.
 */
export function reuseKeys(
  accountId: string,
  code: string,
  person: ReusePerson,
  asked: boolean,
): string[] {
  const dob = person.dob?.slice(0, 10);
  if (!dob) return [];
  const last = person.lastName?.trim() ? nameNorm(person.lastName) : '';
  const first = person.firstName?.trim() ? nameNorm(person.firstName) : '';
  const member =
    person.memberId?.trim() && last
      ? key(accountId, code, ['ml', norm(person.memberId), last, dob])
      : null;
  const names = first && last ? key(accountId, code, ['n', first, last, dob]) : null;
  const keys = asked ? [member ?? names] : [member, names];
  return keys.filter((k): k is string => k !== null);
}
