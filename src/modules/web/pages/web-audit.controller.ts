import { Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import {
  AuditEventResponse,
  AuditService,
  ListAuditEventsQuery,
  TRAIL_RESOURCE_TYPES,
} from '@/modules/audit';
import { listFilters, listPage, pageQueries } from '../forms';
import { accountOf, renderPage } from '../web-context';
import { AdminOnly } from '../web-roles';

const PAGE_SIZE = '50';

/** The audit trail (GET /api/auth/v1/audit-events/), filtered by kind of record and record. */
@PageController('app/audit', AdminOnly())
export class WebAuditController {
  constructor(private readonly audit: AuditService) {}

  @PageRead()
  async list(
    @Req() req: Request,
    @Res() res: Response,
    @Query() raw: Record<string, unknown>,
  ): Promise<void> {
    const query = listFilters(raw, 'resource_type', 'resource_id', 'cursor');
    // A filter the API would refuse (an unknown kind, a stale cursor) finds nothing here.
    const page = await listPage(
      ListAuditEventsQuery,
      query,
      (filters) =>
        this.audit.list(accountOf(req), {
          limit: filters.limit ?? Number(PAGE_SIZE),
          cursor: filters.cursor,
          resourceType: filters.resource_type,
          resourceId: filters.resource_id,
        }),
      PAGE_SIZE,
    );
    renderPage(req, res, 'audit.njk', {
      title: 'Audit trail',
      section: 'audit',
      events: page.result.map(AuditEventResponse.from),
      query,
      resourceTypes: TRAIL_RESOURCE_TYPES,
      nextCursor: page.next_cursor,
      ...pageQueries(query, page.next_cursor),
    });
  }
}
