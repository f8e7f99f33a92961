import { ForbiddenError } from '@/platform/kernel/errors';
import { type ApiScope, grants, scopeAction, scopeRefusal } from '@/modules/auth';
import type { WebhookTopic } from '../store/webhook.entity';

/**
 * SECURITY.md: a webhook carries the data of its topics to whatever URL it names, so pointing
 * one somewhere (creating it, changing its URL or events) or redelivering needs, beside
 * `webhooks:write`, the read scope of that data. Otherwise a `webhooks:write` key reads PHI it
 * may not GET.
 */
const TOPIC_READ_SCOPES: Record<WebhookTopic, readonly ApiScope[]> = {
  eligibility: ['eligibility:read'],
  batch: ['eligibility:read'],
  claim: ['claims:read'],
  // docs/api.md, Claim reports and remittances: scope claims:read covers remittances.
  remittance: ['claims:read'],
  // docs/api.md, Insurers and assisted verification: task events carry the patient as asked.
  verification: ['verification:read'],
  // docs/api.md, Appointments: a check's events carry the appointment, its patient included,
  // and the check's answer (benefits, changes, its eligibility request).
  appointment: ['appointments:read', 'eligibility:read'],
};

/** What an API key holds; null for a web user (roles, not scopes, decide for them). */
export type HeldScopes = readonly string[] | null;

/** Throws the contract's 403 naming the first read scope the topics need and the key lacks. */
export function requireTopicScopes(held: HeldScopes, topics: readonly WebhookTopic[]): void {
  if (held === null) return;
  for (const topic of topics)
    for (const needed of TOPIC_READ_SCOPES[topic])
      if (!grants(held, needed)) throw new ForbiddenError(scopeRefusal(scopeAction(needed)));
}

/** The topic of a delivery's event (`claim.status_changed` → claim, `eligibility.*` → eligibility). */
export function topicOfEvent(event: string): WebhookTopic {
  if (event.startsWith('claim')) return 'claim';
  if (event.startsWith('remittance')) return 'remittance';
  if (event.startsWith('verification')) return 'verification';
  if (event.startsWith('appointment')) return 'appointment';
  if (event.includes('batch')) return 'batch';
  return 'eligibility';
}
