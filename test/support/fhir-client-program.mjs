// An independent FHIR client against the door (docs/api.md, FHIR R4): fhir-kit-client, which is
// an ES module only, run as its own process. It submits the Bundle in BUNDLE, polls the first
// response until its outcome is complete or error, reads the Patient and Coverage, searches by
// the request uid, and prints one JSON line of what it got.
import { Client } from 'fhir-kit-client';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const client = new Client({ baseUrl: env('FHIR_BASE_URL'), bearerToken: env('FHIR_KEY') });
const bundle = JSON.parse(env('BUNDLE'));

const submitted = await client.operation({
  resourceType: 'CoverageEligibilityRequest',
  name: '$submit',
  input: bundle,
});
const first = submitted.resourceType === 'Bundle' ? submitted.entry[0].resource : submitted;
const seen = [first.outcome];
let response = first;
const deadline = Date.now() + 30_000;
while (!['complete', 'error'].includes(response.outcome)) {
  if (Date.now() > deadline) throw new Error(`still ${response.outcome} after 30 s`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  response = await client.read({ resourceType: 'CoverageEligibilityResponse', id: first.id });
  if (seen[seen.length - 1] !== response.outcome) seen.push(response.outcome);
}
const patientId = response.patient.reference.split('/')[1];
const coverageId = response.insurance?.[0]?.coverage.reference.split('/')[1];
const patient = await client.read({ resourceType: 'Patient', id: patientId });
const coverage = coverageId
  ? await client.read({ resourceType: 'Coverage', id: coverageId })
  : null;
const uid = first.identifier[0];
const search = await client.search({
  resourceType: 'CoverageEligibilityResponse',
  searchParams: { identifier: `${uid.system}|${uid.value}` },
});
const capability = await client.capabilityStatement();
process.stdout.write(
  `${JSON.stringify({ submitted, seen, response, patient, coverage, search, capability })}\n`,
);
