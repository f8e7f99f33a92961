/**
 * The sandbox's people look like the patient searched (docs/api.md, The sandbox insurer): a
 * subscriber whose first name is a common given name gets the sex it usually goes with ("Eve
 * Both" is not `male`); any other name keeps the seed's choice.
 */
const FEMALE = new Set([
  'ana',
  'anna',
  'ann',
  'anne',
  'ava',
  'bea',
  'carmen',
  'clara',
  'elena',
  'elizabeth',
  'ella',
  'emily',
  'emma',
  'eva',
  'eve',
  'evelyn',
  'grace',
  'helen',
  'ines',
  'isabel',
  'jane',
  'julia',
  'karen',
  'laura',
  'lena',
  'linda',
  'lucia',
  'lucja',
  'maria',
  'mary',
  'mia',
  'olivia',
  'rosa',
  'sara',
  'sarah',
  'sofia',
  'sophia',
  'susan',
]);
const MALE = new Set([
  'adam',
  'bob',
  'carlos',
  'daniel',
  'david',
  'james',
  'john',
  'jose',
  'juan',
  'lucas',
  'luis',
  'mark',
  'michael',
  'noah',
  'owen',
  'paul',
  'peter',
  'robert',
  'thomas',
  'timmy',
  'tom',
  'tomas',
  'william',
]);

/** `female` or `male` for a common first name (accents and case aside), else null. */
export function sexOfFirstName(firstName: string): 'female' | 'male' | null {
  const name = firstName
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .trim()
    .split(/[\s-]/)[0];
  if (FEMALE.has(name)) return 'female';
  if (MALE.has(name)) return 'male';
  return null;
}
