import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { type KeysetPage, paginateKeyset } from '@/common/pagination/keyset-paginator';
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

/** Writes the audit trail (append-only) and reads it back for one account. */
@Injectable()
export class AuditService {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  async record(r: AuditRecord): Promise<void> {
    await this.events.insert({
      accountId: r.actor.accountId,
      actorType: r.actor.type,
      actor: r.actor.name.slice(0, 320),
      apiKeyId: r.actor.apiKeyId,
      userId: r.actor.userId,
      action: r.action,
      resourceType: r.resourceType,
      resourceId: r.resourceId?.slice(0, 256) ?? null,
      requestId: r.requestId?.slice(0, 128) ?? null,
      ip: r.ip?.slice(0, 64) ?? null,
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
