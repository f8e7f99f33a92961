import { searchOfBundle } from './bundle-intake';

const DEMO = 'insurer:demo:vision';
const VSP = 'insurer:vision:vsp';

/** A Bundle of `requests` for one patient, referencing by fullUrl (urn:uuid) or Type/id. */
function bundle(insurers: string[], byFullUrl = true): Record<string, any> {
  const ref = (type: string, id: string) =>
    byFullUrl ? `urn:uuid:${type.toLowerCase()}-${id}` : `${type}/${id}`;
  const entry = (type: string, id: string, resource: Record<string, unknown>) => ({
    fullUrl: `urn:uuid:${type.toLowerCase()}-${id}`,
    resource: { resourceType: type, ...(byFullUrl ? {} : { id }), ...resource },
  });
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      ...insurers.map((_, i) =>
        entry('CoverageEligibilityRequest', `r${i}`, {
          status: 'active',
          purpose: ['benefits'],
          created: '2026-12-06',
          patient: { reference: ref('Patient', 'p') },
          insurer: { reference: ref('Organization', `o${i}`) },
          insurance: [{ coverage: { reference: ref('Coverage', 'c') } }],
        }),
      ),
      entry('Patient', 'p', {
        name: [{ family: 'Garcia', given: ['Maria', 'Luisa'] }],
        birthDate: '1984-06-15',
        address: [{ postalCode: '78701' }],
      }),
      entry('Coverage', 'c', { status: 'active', subscriberId: 'VSP123456789' }),
      ...insurers.map((code, i) =>
        entry('Organization', `o${i}`, {
          identifier: [
            { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' },
            { system: 'urn:vision-eligibility:insurer-code', value: code },
          ],
        }),
      ),
    ],
  };
}

const refusal = (message: string | RegExp) =>
  expect.objectContaining({ status: 400, errors: { $: [expect.stringMatching(message)] } });

describe('a $submit Bundle as a search (docs/api.md, FHIR R4)', () => {
  it('is a search of one insurer, references by fullUrl or by Type/id', async () => {
    for (const byFullUrl of [true, false]) {
      const { dto, requests } = await searchOfBundle(bundle([DEMO], byFullUrl));
      expect(requests).toBe(1);
      expect({ ...dto }).toEqual({
        insurer_code: DEMO,
        request_uid: null,
        patient: {
          first_name: 'Maria',
          last_name: 'Garcia',
          dob: '1984-06-15',
          zipcode: '78701',
          member_id: 'VSP123456789',
        },
        wait_for: null,
      });
    }
  });

  it('is one Universal Search of several, in order, waiting for the electronic ones by default', async () => {
    const { dto } = await searchOfBundle(bundle([DEMO, VSP]));
    expect(dto).toMatchObject({ insurer_code_list: [DEMO, VSP], wait_for: 'electronic' });
    const first = bundle([DEMO, VSP]);
    first.entry[0].resource.extension = [
      {
        url: 'https://fhir.vision-eligibility.example/fhir/R4/StructureDefinition/wait-for',
        valueCode: 'all',
      },
    ];
    expect((await searchOfBundle(first)).dto.wait_for).toBe('all');
  });

  it('refuses a request whose patient or insurer is not in the Bundle', async () => {
    const strange = bundle([DEMO]);
    strange.entry[0].resource.patient = { reference: 'Patient/elsewhere' };
    await expect(searchOfBundle(strange)).rejects.toEqual(refusal(/its patient must reference/));
    const anonymous = bundle([DEMO]);
    anonymous.entry.at(-1).resource.identifier = [];
    await expect(searchOfBundle(anonymous)).rejects.toEqual(refusal(/its insurer must reference/));
  });

  it('refuses more than ten requests, two patients, an entry without a resource', async () => {
    const eleven = bundle(Array.from({ length: 11 }, () => DEMO));
    await expect(searchOfBundle(eleven)).rejects.toEqual(refusal(/at most 10/));
    const twins = bundle([DEMO]);
    twins.entry.push({ resource: { resourceType: 'Patient' } });
    await expect(searchOfBundle(twins)).rejects.toEqual(refusal(/exactly one Patient/));
    const hollow = bundle([DEMO]);
    hollow.entry.push({ fullUrl: 'urn:uuid:x' });
    await expect(searchOfBundle(hollow)).rejects.toEqual(refusal(/has no resource/));
  });

  it("names the JSON API's field errors where the Bundle gives the field", async () => {
    const young = bundle([DEMO]);
    young.entry[1].resource.birthDate = 'not a date';
    delete young.entry[1].resource.address;
    const e = await searchOfBundle(young).catch((x: unknown) => x);
    expect(Object.keys((e as { errors: object }).errors).sort()).toEqual([
      'Patient.address[0].postalCode',
      'Patient.birthDate',
    ]);
  });
});
