import { Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import { ValidationFailed } from '@/platform/kernel/errors';
import {
  AuditEventResponse,
  AuditService,
  ListAuditEventsQuery,
  TRAIL_RESOURCE_TYPES,
} from '@/modules/audit';
import { bindForm } from '../forms';
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
    const query = {
      resource_type: str(raw.resource_type),
      resource_id: str(raw.resource_id),
      cursor: str(raw.cursor),
    };
    let events: AuditEventResponse[] = [];
    let nextCursor: string | null = null;
    try {
      const filters = await bindForm(ListAuditEventsQuery, { ...query, limit: PAGE_SIZE });
      const page = await this.audit.list(accountOf(req), {
        limit: filters.limit ?? Number(PAGE_SIZE),
        cursor: filters.cursor,
        resourceType: filters.resource_type,
        resourceId: filters.resource_id,
      });
      events = page.result.map(AuditEventResponse.from);
      nextCursor = page.next_cursor;
    } catch (e) {
      // A filter the API would refuse (an unknown kind, a stale cursor) finds nothing here.
      if (!(e instanceof ValidationFailed)) throw e;
    }
    const params = (extra: Record<string, string>) =>
      new URLSearchParams(
        Object.entries<string>({
          resource_type: query.resource_type,
          resource_id: query.resource_id,
          ...extra,
        }).filter(([, v]) => v),
      ).toString();
    renderPage(req, res, 'audit.njk', {
      title: 'Audit trail',
      section: 'audit',
      events,
      query,
      resourceTypes: TRAIL_RESOURCE_TYPES,
      nextCursor,
      nextPageQuery: params({ cursor: nextCursor ?? '' }),
      firstPageQuery: params({}),
    });
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
