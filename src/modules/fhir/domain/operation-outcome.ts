import type { FhirResource } from './fhir.constants';

/** The door's errors (docs/api.md, FHIR R4): the JSON API's error bodies as OperationOutcomes. */

type Json = Record<string, any>;

/** An error as FHIR says it: one issue per message, with the status's issue type. */
export function operationOutcome(status: number, body: unknown): FhirResource {
  const messages = messagesOf(body);
  return {
    resourceType: 'OperationOutcome',
    issue: (messages.length > 0 ? messages : [{ text: `HTTP ${status}` }]).map((m) => ({
      severity: 'error',
      code: issueType(status),
      diagnostics: m.text,
      ...(m.path ? { expression: [m.path] } : {}),
    })),
  };
}

function issueType(status: number): string {
  if (status === 401) return 'security';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too-costly';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'exception';
  return 'invalid';
}

/** The messages of the JSON API's error bodies (`{detail}` or the `{errors}` tree). */
function messagesOf(body: unknown): { text: string; path?: string }[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as Json;
  if (typeof b.detail === 'string') return [{ text: b.detail }];
  const out: { text: string; path?: string }[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$' && Array.isArray(value)) {
        const where = path.join('.');
        for (const text of value as string[])
          out.push(where ? { text: `${where}: ${text}`, path: where } : { text });
      } else walk(value, [...path, key]);
    }
  };
  walk(b.errors, []);
  return out;
}
