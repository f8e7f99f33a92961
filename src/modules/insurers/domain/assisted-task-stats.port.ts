import { defineHook } from '@/platform/kernel/hooks';

/** An assisted insurer's tasks as the directory shows them (docs/api.md, The insurer directory). */
export interface AssistedTaskStatsEntry {
  /** The account's tasks of the insurer in `queued`, `in_progress` or `needs_info`. */
  tasks_open: number;
  /**
   * The median, over the account's tasks of the insurer answered in the last 30 days, of the
   * minutes from a task's creation to its answer, rounded to one decimal; null when none.
   */
  median_minutes_to_answer: number | null;
}

/**
 * What the insurer directory needs of the verification module, declared here and implemented by
 * verification (`@Implements(AssistedTaskStats)`), because verification imports insurers and never
 * the other way (docs/architecture.md, Module graph): the tasks' table is verification's.
 */
export interface AssistedTaskStatsPort {
  /**
   * The account's task figures of each insurer of `codes`, in one statement for them all; every
   * code of `codes` has an entry (no task: 0 and null).
   */
  forInsurers(accountId: string, codes: string[]): Promise<Map<string, AssistedTaskStatsEntry>>;
}

/** The port's hook, injected into the insurer directory. */
export const AssistedTaskStats = defineHook<AssistedTaskStatsPort>('AssistedTaskStats');
