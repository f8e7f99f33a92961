import { createHash } from 'node:crypto';

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

const key = (accountId: string, code: string, parts: string[]) =>
  createHash('sha256')
    .update([accountId, code, ...parts].join('\u0000'))
    .digest('base64url');

/**
 * docs/api.md, Universal Search insurer by insurer (reuse): the keys a person is found by, as
 * hashes of the account, the insurer and the person (never their words): member id and date of
 * birth; first and last name and date of birth. `asked`: the keys a search looks up (the member
 * id's alone when it gave one, else the names'); otherwise every key the person has (a task's
 * answer is found by either). Case and spacing do not matter.
 */
export function reuseKeys(
  accountId: string,
  code: string,
  person: ReusePerson,
  asked: boolean,
): string[] {
  const dob = person.dob?.slice(0, 10);
  if (!dob) return [];
  const member = person.memberId?.trim()
    ? key(accountId, code, ['m', norm(person.memberId), dob])
    : null;
  const names =
    person.firstName?.trim() && person.lastName?.trim()
      ? key(accountId, code, ['n', norm(person.firstName), norm(person.lastName), dob])
      : null;
  const keys = asked ? [member ?? names] : [member, names];
  return keys.filter((k): k is string => k !== null);
}
