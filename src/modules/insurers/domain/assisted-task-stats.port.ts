import { Injectable } from '@nestjs/common';

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
 * verification (which binds it at start-up), because verification imports insurers and never
 * the other way (docs/architecture.md, Module graph): the tasks' table is verification's.
 */
export interface AssistedTaskStatsPort {
  /**
   * The account's task figures of each insurer of `codes`, in one statement for them all; every
   * code of `codes` has an entry (no task: 0 and null).
   */
  forInsurers(accountId: string, codes: string[]): Promise<Map<string, AssistedTaskStatsEntry>>;
}

/** The port's one binding, injected into the insurer directory. */
@Injectable()
export class AssistedTaskStats implements AssistedTaskStatsPort {
  private port: AssistedTaskStatsPort | null = null;

  bind(port: AssistedTaskStatsPort): void {
    this.port = port;
  }

  forInsurers(accountId: string, codes: string[]): Promise<Map<string, AssistedTaskStatsEntry>> {
    return this.bound().forInsurers(accountId, codes);
  }

  private bound(): AssistedTaskStatsPort {
    if (!this.port)
      throw new Error(
        'No verification tasks are bound to the insurer directory (VerificationModule).',
      );
    return this.port;
  }
}
