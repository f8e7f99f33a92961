import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource, Repository } from 'typeorm';
import { GroupCommit } from '@/platform/kernel/group-commit';
import { type KeysetPage, paginateKeyset } from '@/platform/http/pagination/keyset-paginator';
import { pgPool } from '@/platform/db/pg-pool';
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
  readonly reads: string;
  readonly n: string;
  readonly key: string;
  readonly accountId: string;
}

const SOURCE: RecordedReadsSource = {
  reads: 'q',
  n: 'q.n',
  key: 'q.key',
  accountId: 'q.account_id',
};

/** Many events in one statement: one array per column (ids and timestamps are the table's defaults). */
const INSERT_EVENTS = `INSERT INTO audit_events
  (account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id, request_id, ip)
  SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::uuid[], $5::uuid[],
    $6::varchar[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[])`;

/** Reads of rows (`select`), each written with its audit event in the same statement. */
const RECORDED_READS = (select: string) => `WITH q AS (
    SELECT * FROM unnest($1::varchar[], $2::uuid[], $3::varchar[], $4::varchar[], $5::uuid[],
      $6::uuid[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[])
      WITH ORDINALITY AS q(key, account_id, actor_type, actor, api_key_id, user_id, action,
        resource_type, resource_id, request_id, ip, n)),
  r AS (${select}),
  e AS (INSERT INTO audit_events
    (account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id, request_id, ip)
    SELECT account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id,
      request_id, ip FROM q WHERE q.n IN (SELECT r.n FROM r))
  SELECT * FROM r`;

/**
 * Reads of rows by key, each written with its audit event in the same statement, grouped: the
 * reads that arrive while one statement is in flight go out together in the next (as events do
 * in `AuditService.record`). The select (`RecordedReadsSource`) answers each read's number with
 * its columns; the events are written for the reads that found their row only, and a row is
 * answered only with its event committed.
 */
export class RecordedReads<R extends QueryResultRow> {
  private readonly text: string;
  private readonly group: GroupCommit<{ key: string; event: AuditEventRow }, R | undefined>;

  constructor(
    private readonly pool: () => Pool,
    private readonly name: string,
    select: string,
  ) {
    this.text = RECORDED_READS(select);
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
    const { rows } = await this.pool().query<R & { n: string }>({
      name: this.name,
      text: this.text,
      values: columns,
    });
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
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /** Writes `rows` in one statement. */
  async insertMany(rows: AuditEventRow[]): Promise<void> {
    const columns = rows[0].map((_, i) => rows.map((row) => row[i]));
    await pgPool(this.db).query({
      name: 'audit-insert-events',
      text: INSERT_EVENTS,
      values: columns,
    });
  }

  /** Reads recorded in groups (`RecordedReads`); `name` names the prepared statement. */
  recordedReads<R extends QueryResultRow>(
    name: string,
    select: (q: RecordedReadsSource) => string,
  ): RecordedReads<R> {
    return new RecordedReads<R>(() => pgPool(this.db), name, select(SOURCE));
  }

  /** The account's events, newest first, keyset-paged; filters combine. */
  list(accountId: string, filter: AuditFilter): Promise<KeysetPage<AuditEvent>> {
    const qb = this.events
      .createQueryBuilder('e')
      .where('e.account_id = :accountId', { accountId });
    if (filter.resourceType)
      qb.andWhere('e.resource_type = :resourceType', { resourceType: filter.resourceType });
    if (filter.resourceId)
      qb.andWhere('e.resource_id = :resourceId', { resourceId: filter.resourceId });
    return paginateKeyset(qb, { limit: filter.limit, cursor: filter.cursor });
  }
}
