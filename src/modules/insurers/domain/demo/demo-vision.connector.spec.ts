import type { ConnectorContext, MemberQuery } from '../insurer-connector';
import { DemoVisionConnector } from './demo-vision.connector';
import { sexOfFirstName } from './demo-people';

const context = {
  accountId: 'a',
  insurerCode: 'insurer:demo:vision',
  requestUid: 'r',
  elapsedMs: 0,
  credentials: null,
  provider: null,
  deadline: Number.MAX_SAFE_INTEGER,
} as unknown as ConnectorContext;

const query = (firstName: string, lastName: string): MemberQuery => ({
  firstName,
  lastName,
  dob: '1990-05-06',
  zipcode: '78701',
  ssnLastFour: null,
  memberId: null,
});

async function subscriberSex(firstName: string, lastName: string) {
  const outcome = await new DemoVisionConnector().search(query(firstName, lastName), context);
  if (outcome.kind !== 'found') throw new Error(outcome.kind);
  return outcome.plans[0].persons[0].sex;
}

describe('the sandbox subscriber (docs/api.md, The sandbox insurer)', () => {
  it('gives a common first name the sex it goes with: Eve Both is female', async () => {
    await expect(subscriberSex('Eve', 'Both')).resolves.toBe('female');
    await expect(subscriberSex('EVE', 'Stone')).resolves.toBe('female');
    await expect(subscriberSex('Carlos', 'Both')).resolves.toBe('male');
  });

  it('reads names with accents and compound names', () => {
    expect(sexOfFirstName('Inés')).toBe('female');
    expect(sexOfFirstName('Łucja')).toBe('female');
    expect(sexOfFirstName('Tomás')).toBe('male');
    expect(sexOfFirstName('Maria-José')).toBe('female');
    expect(sexOfFirstName('Zephyrine')).toBeNull();
  });

  it('keeps the same answer for the same patient', async () => {
    const first = await subscriberSex('Zephyrine', 'Both');
    expect(['female', 'male']).toContain(first);
    await expect(subscriberSex('Zephyrine', 'Both')).resolves.toBe(first);
  });
});
