import { grants } from '@/platform/http/scopes';
import type { CoverageView } from '../api/dto/appointment.response';

/**
 * Who stores or reads appointments (SECURITY.md, API key scopes): an API key, with its scopes,
 * or a web user (a staff or admin session is not a key: roles decide, and both see and check
 * everything of the Schedule).
 */
export type AppointmentActor =
  { kind: 'api_key'; id: string; scopes: readonly string[] } | { kind: 'user'; id: string };

/** The web user of a session (the Schedule pages). */
export const webActor = (userId: string): AppointmentActor => ({ kind: 'user', id: userId });

/** An authenticated API key (its id and scopes, as the key guard attached them). */
export const keyActor = (auth: {
  apiKeyId: string;
  scopes: readonly string[];
}): AppointmentActor => ({
  kind: 'api_key',
  id: auth.apiKeyId,
  scopes: auth.scopes,
});

/**
 * Whether the actor reads what a check answered (`coverage.benefits`, `coverage.changes`, the
 * check's `request_uid`): eligibility data, which `GET /eligibility` answers only with
 * `eligibility:read` (docs/api.md, Appointments).
 */
function seesCoverage(actor: AppointmentActor): boolean {
  return actor.kind === 'user' || grants(actor.scopes, 'eligibility:read');
}

/** How the actor is answered an appointment (AppointmentResponse.from). */
export const coverageView = (actor: AppointmentActor): CoverageView => ({
  answers: seesCoverage(actor),
});

/**
 * Whether what the actor stores is checked automatically: each check is an eligibility request
 * (an insurer's or clearinghouse's fee), which only `eligibility:write` may start.
 */
function startsChecks(actor: AppointmentActor): boolean {
  return actor.kind === 'user' || grants(actor.scopes, 'eligibility:write');
}

/** What the upsert records of who stored an appointment (docs/api.md, Appointments). */
export interface StoredBy {
  stored_by_api_key_id: string | null;
  stored_by_user_id: string | null;
  auto_checks: boolean;
}

export function storedBy(actor: AppointmentActor): StoredBy {
  return {
    stored_by_api_key_id: actor.kind === 'api_key' ? actor.id : null,
    stored_by_user_id: actor.kind === 'user' ? actor.id : null,
    auto_checks: startsChecks(actor),
  };
}

/** `coverage.detail` of an appointment stored by a key that may not start checks. */
export const NO_AUTO_CHECKS =
  'No check runs by itself for this appointment: the API key that stored it lacks the scope ' +
  'eligibility:write (a check is an eligibility request).';
