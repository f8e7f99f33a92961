import { Param, Query, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, INVALID_CURSOR } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import { PlanDesignListQuery } from './dto/plan-design.query';
import { PlanDesignDetailResponse, PlanDesignListResponse } from './dto/plan-design.response';
import { type PlanDesignDetail, PlanDesigns } from '../domain/plan-designs.service';

/**
 * Plan designs (docs/api.md, Plan designs): the benefit trees completed tasks left per insurer and
 * group, which a verifier starts the next task of the group from (`plan_design_id` in `complete`).
 */
@ApiController('Plan designs', 'api/auth/v1/plan-designs')
export class PlanDesignsController {
  constructor(private readonly designs: PlanDesigns) {}

  @ApiRead('', {
    scope: 'verification:read',
    audit: Audited('plan_design', 'list'),
    answer: PlanDesignListResponse,
    errors: [INVALID_CURSOR],
    summary: 'List plan designs',
    description:
      "The account's saved plans, newest first, without their benefit trees; filter by `insurer_code` " +
      'and `q` (part of the plan name, group or group id, any case).',
  })
  list(@Req() req: AppRequest, @Query() query: PlanDesignListQuery) {
    return this.designs.list(req.auth!.accountId, {
      insurerCode: query.insurer_code ?? undefined,
      q: query.q?.trim() || undefined,
      limit: query.limit ?? 50,
      cursor: query.cursor,
    });
  }

  @ApiRead(':id', {
    scope: 'verification:read',
    audit: Audited('plan_design', 'read', 'param:id'),
    answer: PlanDesignDetailResponse,
    errors: [[404, { detail: 'Plan design 7c1e2f4a-93b5-4d0e-8a61-2b9f0c3d5e78 not found.' }]],
    summary: 'Get a plan design',
    description: 'The design with its benefit tree (`items`), as `complete` starts from it.',
  })
  get(@Req() req: AppRequest, @Param('id') id: string): Promise<PlanDesignDetail> {
    return this.designs.get(req.auth!.accountId, id);
  }
}
