import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
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
    return this.writes.add([
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
    ]);
  }

  private async insert(rows: EventRow[]): Promise<void> {
    const columns = rows[0].map((_, i) => rows.map((row) => row[i]));
    await pgPool(this.db).query({
      name: 'audit-insert-events',
      text: INSERT_EVENTS,
      values: columns,
    });
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

/** Text PostgreSQL can store (U+0000 and lone surrogates become U+FFFD), cut to the column's length. */
function storable(value: string | null, max: number): string | null {
  if (value === null) return null;
  const cut = value.slice(0, max);
  return unstorableText(cut) ? Buffer.from(cut).toString().replaceAll('\u0000', '\uFFFD') : cut;
}
