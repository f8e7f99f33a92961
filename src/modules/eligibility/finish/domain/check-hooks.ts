import type { Tx } from '@/platform/db/database';
import { defineHook } from '@/platform/kernel/hooks';

/** What the appointments module learns when one of its checks answered (or its answer grew). */
export interface CheckAnswer {
  accountId: string;
  requestUid: string;
  /** The request's V2 answer as just stored (docs/api.md, V1 and V2 results). */
  bodyV2: string;
}

/**
 * The appointments module's side of a check's answer (docs/api.md, Appointments): run in the
 * transaction that stores the answer, so an appointment's coverage and its webhooks move with it
 * or not at all. Declared here and implemented by appointments, because appointments
 * imports eligibility and never the other way (docs/architecture.md, Module graph).
 */
export interface CheckHooksPort {
  answeredInTx(tx: Tx, answer: CheckAnswer): Promise<void>;
}

/** The port's hook, injected where an answer is stored. */
export const CheckHooks = defineHook<CheckHooksPort>('CheckHooks');
