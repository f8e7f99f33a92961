/** The code sets of a verification task (docs/api.md, Insurers and assisted verification): its states, failure reasons, evidence sources. */
export const TASK_STATES = ['queued', 'in_progress', 'needs_info', 'completed', 'failed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const FAIL_REASONS = [
  'member_not_found',
  'credentials_invalid',
  'portal_down',
  'other',
] as const;
export type FailReason = (typeof FAIL_REASONS)[number];

export const EVIDENCE_SOURCES = ['portal', 'phone', 'fax'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];
