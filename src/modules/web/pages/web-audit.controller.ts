import { Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import {
  AuditEventResponse,
  AuditService,
  ListAuditEventsQuery,
  TRAIL_RESOURCE_TYPES,
} from '@/modules/audit';
import { ListPage } from '../list-page';
import { accountOf } from '../web-context';
import { AdminOnly } from '../web-roles';

const PAGE_SIZE = '50';

/** The audit trail (GET /api/auth/v1/audit-events/), filtered by kind of record and record. */
@PageController('app/audit', AdminOnly())
export class WebAuditController {
  constructor(private readonly audit: AuditService) {}

  private readonly listPage = new ListPage(
    {
      view: 'audit.njk',
      title: 'Audit trail',
      section: 'audit',
      dto: ListAuditEventsQuery,
      filters: ['resource_type', 'resource_id'],
      size: PAGE_SIZE,
    },
    (req, filters) =>
      this.audit.list(accountOf(req), {
        limit: filters.limit ?? Number(PAGE_SIZE),
        cursor: filters.cursor,
        resourceType: filters.resource_type,
        resourceId: filters.resource_id,
      }),
    (events) => ({
      events: events.map(AuditEventResponse.from),
      resourceTypes: TRAIL_RESOURCE_TYPES,
    }),
  );

  @PageRead()
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.listPage.show(req, res);
  }
}
