import { Injectable } from '@nestjs/common';
import { GroupCommit } from '@/platform/kernel/group-commit';
import type { Sql } from '@/platform/db/sql';
import type { KeysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { AuditEvent } from '../store/audit-event.entity';
import {
  type AuditFilter,
  AuditEventsRepository,
  type RecordedReads,
  type RecordedReadsSource,
  type RecordedRow,
} from '../store/audit-events.repository';
import { type AuditEventRow, type AuditRecord, eventRow } from './audit-record';

export type { AuditActor, AuditRecord } from './audit-record';
export type {
  AuditFilter,
  RecordedReads,
  RecordedReadsSource,
} from '../store/audit-events.repository';

/**
 * Writes the audit trail (append-only) and reads it back for one account. Every read of patient
 * data waits for its event (AuditGuard), so events are group-committed: the events of the
 * requests that arrive while a write is in flight go out in the next one, a statement for many
 * reads instead of one each; a lone read's event is written at once.
 */
@Injectable()
export class AuditService {
  private readonly writes = new GroupCommit<AuditEventRow>((rows) => this.events.insertMany(rows), {
    maxBatch: 500,
    maxInFlight: 4,
  });

  constructor(private readonly events: AuditEventsRepository) {}

  record(r: AuditRecord): Promise<void> {
    return this.writes.add(eventRow(r));
  }

  /**
   * Reads recorded in groups (`RecordedReads`): `select` reads the caller's rows for the reads
   * of a group (`RecordedReadsSource`).
   */
  recordedReads<R extends RecordedRow>(select: (q: RecordedReadsSource) => Sql): RecordedReads<R> {
    return this.events.recordedReads<R>(select);
  }

  /** Newest first, keyset-paged; filters combine. */
  list(accountId: string, filter: AuditFilter): Promise<KeysetPage<AuditEvent>> {
    return this.events.list(accountId, filter);
  }
}
