import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { GroupCommit } from '@/platform/kernel/group-commit';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, sql, type Sql } from '@/platform/db/sql';
import { AuditEvent } from './audit-event.entity';
import { type AuditEventRow, type AuditRecord, eventRow } from '../domain/audit-record';

export interface AuditFilter {
  limit: number;
  cursor?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
}

/** A row a recorded read answers (its columns as the caller's select names them). */
export type RecordedRow = QueryResultRow;

/**
 * The reads of a group as the select of `recordedReads` sees them, one row per read: the select
 * reads `FROM ${q.reads}` and answers `${q.n}` (as `n`) with its columns, for the row of
 * `${q.key}` within the reading account `${q.accountId}`.
 */
export interface RecordedReadsSource {
  readonly reads: Sql;
  readonly n: Sql;
  readonly key: Sql;
  readonly accountId: Sql;
}

const SOURCE: RecordedReadsSource = {
  reads: sql.raw('q'),
  n: sql.raw('q.n'),
  key: sql.raw('q.key'),
  accountId: sql.raw('q.account_id'),
};

/** The types of an event's columns (`AuditEventRow`), each sent as one array. */
const EVENT_TYPES = [
  'uuid',
  'varchar',
  'varchar',
  'uuid',
  'uuid',
  'varchar',
  'varchar',
  'varchar',
  'varchar',
  'varchar',
];

/** `columns` as arrays of `types` for unnest (one parameter each). */
const arrays = (columns: unknown[][], types: string[]) =>
  sql.join(columns.map((c, i) => sql`${c}::${sql.raw(types[i])}[]`));

/**
 * Reads of rows by key, each written with its audit event in the same statement, grouped: the
 * reads that arrive while one statement is in flight go out together in the next (as events do
 * in `AuditService.record`). The select (`RecordedReadsSource`) answers each read's number with
 * its columns; the events are written for the reads that found their row only, and a row is
 * answered only with its event committed.
 */
export class RecordedReads<R extends QueryResultRow> {
  private readonly group: GroupCommit<{ key: string; event: AuditEventRow }, R | undefined>;

  constructor(
    private readonly db: DataSource,
    private readonly select: Sql,
  ) {
    this.group = new GroupCommit((items) => this.readBatch(items), {
      maxBatch: 64,
      maxInFlight: 4,
    });
  }

  /** The row of `key` within the event's account, or undefined (and no event) when none. */
  read(key: string, event: AuditRecord): Promise<R | undefined> {
    return this.group.add({ key, event: eventRow(event) });
  }

  private async readBatch(
    items: { key: string; event: AuditEventRow }[],
  ): Promise<(R | undefined)[]> {
    const columns: unknown[][] = [items.map((i) => i.key)];
    for (let c = 0; c < 10; c++) columns.push(items.map((i) => i.event[c]));
    const rows = await query<R & { n: string }>(
      this.db,
      sql`WITH q AS (
    SELECT * FROM unnest(${arrays(columns, ['varchar', ...EVENT_TYPES])})
      WITH ORDINALITY AS q(key, account_id, actor_type, actor, api_key_id, user_id, action,
        resource_type, resource_id, request_id, ip, n)),
  r AS (${this.select}),
  e AS (INSERT INTO audit_events
    (account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id, request_id, ip)
    SELECT account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id,
      request_id, ip FROM q WHERE q.n IN (SELECT r.n FROM r))
  SELECT * FROM r`,
    );
    const found: (R | undefined)[] = new Array<R | undefined>(items.length);
    for (const row of rows) found[Number(row.n) - 1] = row;
    return found;
  }
}

/**
 * The audit trail's table (append-only: `audit_events` refuses UPDATE and DELETE). Writes go
 * straight to the driver's pool as named prepared statements (every read of patient data waits
 * for its event). A recorded read's select (`recordedReads`) is the caller's: it reads the
 * caller's own table.
 */
@Injectable()
export class AuditEventsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Writes `rows` in one statement (one array per column; ids and times are the defaults). */
  async insertMany(rows: AuditEventRow[]): Promise<void> {
    const columns = rows[0].map((_, i) => rows.map((row) => row[i]));
    await execute(
      this.db,
      sql`INSERT INTO audit_events
  (account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id, request_id, ip)
  SELECT * FROM unnest(${arrays(columns, EVENT_TYPES)})`,
    );
  }

  /** Reads recorded in groups (`RecordedReads`) with the caller's `select`. */
  recordedReads<R extends QueryResultRow>(
    select: (q: RecordedReadsSource) => Sql,
  ): RecordedReads<R> {
    return new RecordedReads<R>(this.db, select(SOURCE));
  }

  /** The account's events, newest first, keyset-paged; filters combine. */
  list(accountId: string, filter: AuditFilter): Promise<KeysetPage<AuditEvent>> {
    const where = [sql`e.account_id = ${accountId}`];
    if (filter.resourceType) where.push(sql`e.resource_type = ${filter.resourceType}`);
    if (filter.resourceId) where.push(sql`e.resource_id = ${filter.resourceId}`);
    return keysetPage(
      this.db,
      sql`SELECT ${entityColumns(this.db, AuditEvent, 'e')} FROM audit_events e
       WHERE ${sql.join(where, ' AND ')}`,
      { limit: filter.limit, cursor: filter.cursor },
    );
  }
}
