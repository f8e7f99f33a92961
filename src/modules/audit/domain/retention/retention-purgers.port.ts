import type { Tx } from '@/platform/db/database';
import { defineHookList } from '@/platform/kernel/hooks';

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

/** Every owner's purger (`@Implements(RetentionPurgers)`), in the order Nest holds them. */
export const RetentionPurgers = defineHookList<RetentionPurger>('RetentionPurgers');
