import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource, Repository } from 'typeorm';
import { GroupCommit } from '@/common/group-commit';
import { type KeysetPage, paginateKeyset } from '@/common/pagination/keyset-paginator';
import { unstorableText } from '@/common/validation/strings';
import { pgPool } from '@/database/pg-pool';
import { AuditEvent, type AuditActorType } from './audit-event.entity';

export interface AuditActor {
  accountId: string;
  type: AuditActorType;
  /** API key prefix or user e-mail. */
  name: string;
  apiKeyId: string | null;
  userId: string | null;
}

export interface AuditRecord {
  actor: AuditActor;
  action: string;
  resourceType: string;
  resourceId: string | null;
  requestId: string | null;
  ip: string | null;
}

export interface AuditFilter {
  limit: number;
  cursor?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
}

/** The columns an event is written with, in the order of INSERT_EVENTS. */
type EventRow = [
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  string,
  string | null,
  string | null,
  string | null,
];

/** Many events in one statement: one array per column (ids and timestamps are the table's defaults). */
const INSERT_EVENTS = `INSERT INTO audit_events
  (account_id, actor_type, actor, api_key_id, user_id, action, resource_type, resource_id, request_id, ip)
  SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::uuid[], $5::uuid[],
    $6::varchar[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[])`;

/**
 * Reads of rows by key, each written with its audit event in the same statement, grouped: the
 * reads that arrive while one statement is in flight go out together in the next (as events do
 * in `AuditService.record`). `select` reads from `q` (one row per read: `q.n`, `q.key` and
 * `q.account_id`, the reading account) and answers `n` with its columns; the events are written
 * for the reads that found their row only, and a row is answered only with its event committed.
 */
export class RecordedReads<R extends QueryResultRow> {
  private readonly text: string;
  private readonly group: GroupCommit<{ key: string; event: EventRow }, R | undefined>;

  constructor(
    private readonly pool: () => Pool,
    private readonly name: string,
    select: string,
  ) {
    this.text = `WITH q AS (
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
    this.group = new GroupCommit((items) => this.readBatch(items), {
      maxBatch: 64,
      maxInFlight: 4,
    });
  }

  /** The row of `key` within the event's account, or undefined (and no event) when none. */
  read(key: string, event: AuditRecord): Promise<R | undefined> {
    return this.group.add({ key, event: eventRow(event) });
  }

  private async readBatch(items: { key: string; event: EventRow }[]): Promise<(R | undefined)[]> {
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
 * Writes the audit trail (append-only) and reads it back for one account. Every read of patient
 * data waits for its event (AuditGuard), so events are group-committed: the events of the
 * requests that arrive while a write is in flight go out in the next one, a statement for many
 * reads instead of one each; a lone read's event is written at once.
 */
@Injectable()
export class AuditService {
  private readonly writes = new GroupCommit<EventRow>((rows) => this.insert(rows), {
    maxBatch: 500,
    maxInFlight: 4,
  });

  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  record(r: AuditRecord): Promise<void> {
    return this.writes.add(eventRow(r));
  }

  private async insert(rows: EventRow[]): Promise<void> {
    const columns = rows[0].map((_, i) => rows.map((row) => row[i]));
    await pgPool(this.db).query({
      name: 'audit-insert-events',
      text: INSERT_EVENTS,
      values: columns,
    });
  }

  /** Reads recorded in groups (`RecordedReads`); `name` names the prepared statement. */
  recordedReads<R extends QueryResultRow>(name: string, select: string): RecordedReads<R> {
    return new RecordedReads<R>(() => pgPool(this.db), name, select);
  }

  /** Newest first, keyset-paged; filters combine. */
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

function eventRow(r: AuditRecord): EventRow {
  return [
    r.actor.accountId,
    r.actor.type,
    storable(r.actor.name, 320)!,
    r.actor.apiKeyId,
    r.actor.userId,
    r.action,
    r.resourceType,
    storable(r.resourceId, 256),
    storable(r.requestId, 128),
    storable(r.ip, 64),
  ];
}

/** Text PostgreSQL can store (U+0000 and lone surrogates become U+FFFD), cut to the column's length. */
function storable(value: string | null, max: number): string | null {
  if (value === null) return null;
  const cut = value.slice(0, max);
  return unstorableText(cut) ? Buffer.from(cut).toString().replaceAll('\u0000', '\uFFFD') : cut;
}
