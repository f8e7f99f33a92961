import { Query, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { NotPatientData } from '../domain/audited';
import { AuditService } from '../domain/audit.service';
import { LIST_DEFAULT_PAGE_SIZE } from '@/platform/http/pagination/list-query';
import {
  AuditEventListResponse,
  AuditEventResponse,
  ListAuditEventsQuery,
} from './dto/audit-event.dto';

@ApiController('Audit', 'api/auth/v1/audit-events')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @ApiRead('', {
    scope: 'audit:read',
    audit: NotPatientData(),
    summary: "The account's audit trail",
    description:
      'One event per successful read or change of patient data, by an API key or a web user. ' +
      'Newest first, keyset-paginated: pass `next_cursor` back as `cursor` until it is null. ' +
      'Filters combine (AND). Needs the `audit:read` scope.',
    answer: AuditEventListResponse,
    errors: [[400, { errors: { resource_type: { $: ['"visit" is not a valid choice.'] } } }]],
  })
  async list(
    @Req() req: AppRequest,
    @Query() query: ListAuditEventsQuery,
  ): Promise<AuditEventListResponse> {
    const page = await this.audit.list(req.auth!.accountId, {
      limit: query.limit ?? LIST_DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      resourceType: query.resource_type,
      resourceId: query.resource_id,
    });
    return { result: page.result.map(AuditEventResponse.from), next_cursor: page.next_cursor };
  }
}
