import { Injectable } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';

/**
 * What PHI_RETENTION_DAYS (SECURITY.md) needs of a module that holds patient data, declared here
 * and implemented by each owner in its own repository (docs/architecture.md, Data access), so
 * that audit names no other module's table: one batch of its rows older than the limit lose
 * their patient data.
 */
export interface RetentionPurger {
  /** The key its count is logged under ('patient data erased'). */
  readonly name: string;
  /**
   * In the job's transaction `tx`: up to `limit` rows created before `cutoff`, not purged yet,
   * lose their patient data (locked `FOR UPDATE SKIP LOCKED`: several workers share the work);
   * answers how many. A batch smaller than `limit` is the last of a pass.
   */
  purge(cutoff: Date, limit: number, tx: Tx): Promise<number>;
}

/** The registered purgers, in the order they registered; each owner registers at start-up. */
@Injectable()
export class RetentionPurgers {
  private readonly purgers: RetentionPurger[] = [];

  register(purger: RetentionPurger): void {
    if (this.purgers.some((p) => p.name === purger.name))
      throw new Error(`A retention purger named ${purger.name} is registered already.`);
    this.purgers.push(purger);
  }

  all(): readonly RetentionPurger[] {
    return this.purgers;
  }
}
