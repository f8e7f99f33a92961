import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DbQueueSpec } from './db-queue-spec';

/**
 * One row per queue: the jobs due now and not running (a run moves its row's due time past the
 * run; a parked row is due at 'infinity') and how long the oldest of them has waited. Each part
 * reads the queue's own partial index on its due column.
 */
export function dueStatsSql(specs: readonly DbQueueSpec[]): string {
  return specs
    .map(
      (s, i) =>
        `SELECT $${i + 1}::text AS queue, count(*)::int AS due,
           COALESCE(extract(epoch FROM now() - min(${s.dueColumn})), 0)::float8 AS oldest
         FROM ${s.table} WHERE ${s.pending} AND ${s.dueColumn} <= now()`,
    )
    .join('\nUNION ALL\n');
}

/** Each queue's due jobs and the age of its oldest (docs/architecture.md, What operators see). */
@Injectable()
export class QueueStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async due(
    specs: readonly DbQueueSpec[],
  ): Promise<{ queue: string; due: number; oldest: number }[]> {
    if (specs.length === 0) return [];
    return this.db.query(
      dueStatsSql(specs),
      specs.map((s) => s.name),
    );
  }
}
