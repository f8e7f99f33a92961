import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { execute, query, queryOne, sql } from './sql';

/** A count after it was raised, and the seconds left in its window. */
interface RaisedCount {
  count: number;
  secondsLeft: number;
}

/** A process deletes ended windows at most this often (when it raises a count). */
const PRUNE_EVERY_MS = 60_000;

/**
 * Counts shared by every process over a time window (docs/configuration.md, Database and Redis):
 * one row per key until `expires_at` (ended rows pruned by `raise`, once a minute). Raising is
 * one atomic upsert, so parallel attempts each see their own number.
 */
@Injectable()
export class WindowCounts {
  private prunedAt = Date.now();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds one to each of `keys` (distinct), a new window of `windowSeconds` for a count that had
   * none; `sliding`: every attempt starts the window again. Answers the counts in `keys`' order.
   */
  async raise(keys: string[], windowSeconds: number, sliding: boolean): Promise<RaisedCount[]> {
    const rows = await query<{ key: string; count: number; seconds_left: number }>(
      this.db,
      sql`INSERT INTO window_counts AS c (key, count, expires_at)
       SELECT k, 1, now() + make_interval(secs => ${windowSeconds}) FROM unnest(${keys}::text[]) AS k
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.count + 1 END,
         expires_at = CASE WHEN ${sliding} OR c.expires_at <= now() THEN EXCLUDED.expires_at
                           ELSE c.expires_at END
       RETURNING key, count, ceil(extract(epoch FROM expires_at - now()))::int AS seconds_left`,
    );
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await execute(this.db, sql`DELETE FROM window_counts WHERE expires_at <= now()`);
    }
    const byKey = new Map(rows.map((r) => [r.key, r]));
    return keys.map((k) => ({
      count: byKey.get(k)?.count ?? 0,
      secondsLeft: byKey.get(k)?.seconds_left ?? 0,
    }));
  }

  /** The live count of `key` (0 when none). */
  async count(key: string): Promise<number> {
    const row = await queryOne<{ count: number }>(
      this.db,
      sql`SELECT count FROM window_counts WHERE key = ${key} AND expires_at > now()`,
    );
    return row?.count ?? 0;
  }

  /** Deletes `key`, answering its live count (0 when none). */
  async take(key: string): Promise<number> {
    const row = await queryOne<{ count: number; live: boolean }>(
      this.db,
      sql`DELETE FROM window_counts WHERE key = ${key} RETURNING count, expires_at > now() AS live`,
    );
    return row?.live ? row.count : 0;
  }

  /** Takes `by` off each key's count; a count that falls to zero or below is deleted. */
  async lower(by: Map<string, number>): Promise<void> {
    if (by.size === 0) return;
    const keys = [...by.keys()];
    const amounts = keys.map((k) => by.get(k) ?? 0);
    await execute(
      this.db,
      sql`UPDATE window_counts c SET count = c.count - d.n
       FROM unnest(${keys}::text[], ${amounts}::int[]) AS d(key, n) WHERE c.key = d.key`,
    );
    await execute(this.db, sql`DELETE FROM window_counts WHERE key = ANY(${keys}) AND count <= 0`);
  }

  async delete(key: string): Promise<void> {
    await execute(this.db, sql`DELETE FROM window_counts WHERE key = ${key}`);
  }
}
