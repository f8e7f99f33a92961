import { isIsoDate } from '@/platform/http/validation/dates';
import type { TaskView } from '../domain/task-view';

/**
 * The person blocks of the benefit form: one block per person the portal shows (the subscriber
 * and each dependent), fields named `p0_first_name`, `p1_dob` … A block asks only for what a
 * portal shows; what is left blank the API fills from the one asked for (docs/api.md
 * "Verification tasks"), or leaves null (sex, address, phone).
 */

/** The most blocks a form has: as many persons as `complete` takes. */
export const MAX_PERSONS = 20;
export const RELATIONSHIPS = ['self', 'spouse', 'child', 'dependent', 'other'] as const;

const TEXT_FIELDS = ['first_name', 'last_name', 'dob', 'sex', 'member_id', 'phone'] as const;
const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'zipcode'] as const;
/**
 * What an address needs once any part of it is typed: `complete` takes a person's address whole
 * or not at all (VerifiedAddressDto: street, city, state and ZIP code; the apartment optional).
 */
const ADDRESS_NEEDS = ['line1', 'city', 'state', 'zipcode'] as const;
export const ADDRESS_PART_NEEDED =
  'Needed once any part of the address is typed: give the street, city, state and ZIP code, or leave the whole address blank.';

export const personField = (i: number, name: string) => `p${i}_${name}`;

/** How many blocks the posted form had (at least one, at most MAX_PERSONS). */
export function personCount(fields: Record<string, string>): number {
  let count = 1;
  for (const name of Object.keys(fields)) {
    const m = /^p(\d{1,2})_/.exec(name);
    if (m && Number(m[1]) < MAX_PERSONS) count = Math.max(count, Number(m[1]) + 1);
  }
  return count;
}

const US_STATES: Record<string, string> = Object.fromEntries(
  (
    'Alabama AL,Alaska AK,Arizona AZ,Arkansas AR,California CA,Colorado CO,Connecticut CT,' +
    'Delaware DE,District of Columbia DC,Florida FL,Georgia GA,Hawaii HI,Idaho ID,Illinois IL,' +
    'Indiana IN,Iowa IA,Kansas KS,Kentucky KY,Louisiana LA,Maine ME,Maryland MD,Massachusetts MA,' +
    'Michigan MI,Minnesota MN,Mississippi MS,Missouri MO,Montana MT,Nebraska NE,Nevada NV,' +
    'New Hampshire NH,New Jersey NJ,New Mexico NM,New York NY,North Carolina NC,North Dakota ND,' +
    'Ohio OH,Oklahoma OK,Oregon OR,Pennsylvania PA,Rhode Island RI,South Carolina SC,' +
    'South Dakota SD,Tennessee TN,Texas TX,Utah UT,Vermont VT,Virginia VA,Washington WA,' +
    'West Virginia WV,Wisconsin WI,Wyoming WY,Puerto Rico PR,Guam GU,Virgin Islands VI,' +
    'American Samoa AS,Northern Mariana Islands MP'
  )
    .split(',')
    .map((entry) => [entry.slice(0, -3).toLowerCase(), entry.slice(-2)]),
);
const CODES = new Set(Object.values(US_STATES));

/** "Texas", "tx", "TX" → "TX"; anything else → null. */
export function stateCode(typed: string): string | null {
  const t = typed.trim().replace(/\s+/g, ' ').replace(/\.$/, '');
  if (CODES.has(t.toUpperCase())) return t.toUpperCase();
  return US_STATES[t.toLowerCase()] ?? null;
}

/**
 * A date field as typed: the picker sends YYYY-MM-DD and shows mm/dd/yyyy, which a browser
 * without one lets people type, so both are taken. Blank → undefined.
 */
export function formDate(typed: string | undefined): { date?: string; error?: string } {
  const t = (typed ?? '').trim();
  if (t === '') return {};
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const iso = us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : t;
  if (isIsoDate(iso)) return { date: iso };
  return { error: 'Enter the date as mm/dd/yyyy, e.g. 06/15/1984.' };
}

export const ENTER_A_DATE = 'Enter a date.';

export interface PersonsResult {
  persons: Record<string, unknown>[];
  /** `persons.1.first_name` → `p1_first_name` (relative to the plan). */
  fieldOf: Record<string, string>;
}

/**
 * The blocks' persons, each with `plan`. A block where nothing is typed is left out (a block
 * added and not used); when every block is blank the first one is kept, which the API fills
 * from the patient as asked.
 */
export function personsBody(
  fields: Record<string, string>,
  plan: Record<string, unknown>,
  fail: (field: string, message: string) => void,
): PersonsResult {
  const text = (name: string) => {
    const t = (fields[name] ?? '').trim();
    return t === '' ? undefined : t;
  };
  const count = personCount(fields);
  const typed = (i: number) =>
    [...TEXT_FIELDS, ...ADDRESS_FIELDS.map((a) => `address_${a}`)].some((n) =>
      text(personField(i, n)),
    );
  let blocks = [...Array(count).keys()].filter(typed);
  if (blocks.length === 0) blocks = [0];
  const fieldOf: Record<string, string> = {};
  const persons = blocks.map((i, k) => {
    const f = (name: string) => text(personField(i, name));
    const person: Record<string, unknown> = { type: f('relationship'), plan };
    for (const name of ['first_name', 'last_name', 'sex', 'member_id', 'phone'])
      person[name] = f(name);
    const dob = formDate(f('dob'));
    if (dob.error) fail(personField(i, 'dob'), dob.error);
    person.dob = dob.date;
    if (ADDRESS_FIELDS.some((a) => f(`address_${a}`))) {
      const typedState = f('address_state');
      const state = typedState ? stateCode(typedState) : undefined;
      if (typedState && !state)
        fail(personField(i, 'address_state'), 'Use the two-letter code, e.g. TX.');
      for (const a of ADDRESS_NEEDS)
        if (!f(`address_${a}`)) fail(personField(i, `address_${a}`), ADDRESS_PART_NEEDED);
      person.address = {
        line1: f('address_line1'),
        line2: f('address_line2') ?? null,
        city: f('address_city'),
        state: state ?? typedState,
        zipcode: f('address_zipcode'),
      };
    }
    for (const name of [...TEXT_FIELDS, 'relationship'])
      fieldOf[`persons.${k}.${name === 'relationship' ? 'type' : name}`] = personField(i, name);
    for (const a of ADDRESS_FIELDS)
      fieldOf[`persons.${k}.address.${a}`] = personField(i, `address_${a}`);
    fieldOf[`persons.${k}.address`] = personField(i, 'address_line1');
    return person;
  });
  return { persons, fieldOf };
}

/**
 * The blocks as the task page first shows them: the patient as asked; when the search named a
 * subscriber, the subscriber (`self`) and the patient as their dependent.
 */
export function initialPersons(task: TaskView): Record<string, string> {
  const p = task.patient;
  const block = (i: number, who: typeof p | NonNullable<typeof p.subscriber>, type: string) => ({
    [personField(i, 'first_name')]: who.first_name ?? '',
    [personField(i, 'last_name')]: who.last_name ?? '',
    [personField(i, 'dob')]: who.dob ?? '',
    [personField(i, 'member_id')]: who.member_id ?? '',
    [personField(i, 'relationship')]: type,
  });
  if (!p.subscriber) return block(0, p, 'self');
  return { ...block(0, p.subscriber, 'self'), ...block(1, p, 'dependent') };
}
