import { defineHook } from '@/platform/kernel/hooks';

/**
 * One insurer's calls of an account since a time, as insurer health shows them (docs/api.md,
 * Insurer health). Calls the insurer asked to repeat later (`deferred`) are not counted.
 */
export interface InsurerCallStatsEntry {
  /** The account's eligibility requests (searches and details) that called the insurer. */
  searches: number;
  /** The calls themselves: each attempt of a retried request is one. */
  calls: number;
  /** Of the calls, the share the insurer answered (a plan or "no such member"), to 3 decimals. */
  answered_share: number;
  /** The median and 95th percentile of the calls' durations, seconds to 3 decimals. */
  p50_seconds: number;
  p95_seconds: number;
  /** The latest call that was not answered: its outcome's kind and when it ended; null: none. */
  last_error: { kind: string; at: Date } | null;
}

/**
 * What insurer health needs of the eligibility module, declared here and implemented by
 * eligibility (`@Implements(InsurerCallStats)`), because eligibility imports insurers and never the
 * other way (docs/architecture.md, Module graph): the exchange log's table is eligibility's.
 */
export interface InsurerCallStatsPort {
  /**
   * The account's calls started at or after `since`, per insurer, in one statement; only
   * insurers with at least one counted call have an entry.
   */
  since(accountId: string, since: Date): Promise<Map<string, InsurerCallStatsEntry>>;
}

/** The port's hook, injected into insurer health. */
export const InsurerCallStats = defineHook<InsurerCallStatsPort>('InsurerCallStats');
