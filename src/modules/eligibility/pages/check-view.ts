import type { Plan } from '@/lib/benefits';
import { insurerName } from '@/modules/insurers';
import { formatInstant } from '@/platform/kernel/time';
import type { InsurerState } from '../domain/insurer-entries';

/** An entry of the answer's `insurers` as the check's page reads it (docs/api.md, Universal Search insurer by insurer). */
export interface CheckInsurer {
  insurer_code: string;
  state: InsurerState;
  detail: string | null;
  verification: { task_id: string } | null;
}

/** What the check's page reads of the API's v2 answer (docs/api.md, V1 and V2 results). */
export interface CheckBody {
  status: string;
  results: { id: number; persons: { id: number; plan: Plan }[] }[] | null;
  /** The first open task; `verifications` all of them (docs/api.md, Insurers and assisted verification). */
  verification?: { task_id: string };
  verifications?: { task_id: string }[];
  insurers?: CheckInsurer[];
}

/** The request a check's page is titled from: who was asked about, of whom, when. */
export interface CheckRequest {
  query: { firstName?: string; lastName?: string };
  insurerCodes: string[];
  createdAt: Date;
}

/** The check's title: "Maria Garcia · VSP Vision Care, EyeMed · 2026-11-21 13:51 UTC". */
export function checkTitle(request: CheckRequest | null): string {
  if (!request) return 'Eligibility check';
  const who = [request.query.firstName, request.query.lastName].filter(Boolean).join(' ');
  return [
    who || 'Eligibility check',
    request.insurerCodes.map(insurerName).join(', '),
    formatInstant(request.createdAt, 'page'),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The open verification tasks of the check: every one the answer names (`verifications`, else
 * `verification`) and those of insurers still waiting for a person (a `wait_for: "electronic"`
 * search is `complete` while they wait), each once, in that order.
 */
export function openTaskIds(body: CheckBody): string[] {
  const named = body.verifications ?? (body.verification ? [body.verification] : []);
  const waiting = (body.insurers ?? []).flatMap((e) =>
    e.state === 'waiting_for_person' && e.verification ? [e.verification] : [],
  );
  return [...new Set([...named, ...waiting].map((t) => t.task_id))];
}

/**
 * The entries as the insurer table shows them. A waiting entry's `detail` names its due time as
 * the API writes it; the table shows that time once, in the pages' words, beside the task link.
 */
export function insurerRows(body: CheckBody): CheckInsurer[] {
  return (body.insurers ?? []).map((e) =>
    e.state === 'waiting_for_person' && e.verification ? { ...e, detail: null } : e,
  );
}
