import { Audited } from '@/modules/audit';
import { Body, Param, Query, Req } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, ApiWrite, INVALID_CURSOR } from '@/platform/http/api-routes';
import { MIB } from '@/platform/http/body/body-limits';
import type { AppRequest } from '@/platform/kernel/request-context';
import { BatchIntake } from '../intake/domain/batch-intake';
import { BatchQueryService } from '../batches/domain/batch-query.service';
import { BatchItemsQuery, CreateBatchDto, MAX_BATCH_ITEMS } from './dto/create-batch.dto';
import { BatchCreatedResponse, BatchItemsPage, BatchResponse } from './dto/batch.response';

const NOT_FOUND: [404, unknown] = [404, { detail: 'Batch schedule-2026-11-22 not found.' }];
const BATCH_UID = { name: 'batch_uid', type: String };

/**
 * docs/api.md, Batches: up to 10,000 eligibility request bodies in 16 MiB; the value cap scales
 * with the item count (a full item, Universal Search list included, has under 40 values).
 */
const BATCH_BODY_LIMITS = { limitBytes: 16 * MIB, maxValues: MAX_BATCH_ITEMS * 40 };

/** docs/api.md, Batches: batch eligibility. */
@ApiController('Eligibility', 'api/auth/v1/eligibility/batches')
export class BatchController {
  constructor(
    private readonly intake: BatchIntake,
    private readonly queries: BatchQueryService,
  ) {}

  @ApiWrite('', 201, {
    scope: 'eligibility:write',
    body: BATCH_BODY_LIMITS,
    audit: Audited('eligibility_batch', 'create', 'result:batch_uid'),
    answer: BatchCreatedResponse,
    errors: [
      [
        400,
        { errors: { items: { '17': { patient: { dob: { $: ['This field is required.'] } } } } } },
      ],
    ],
    summary: 'Start a batch of eligibility checks (up to 10,000)',
    description:
      'Each item is validated exactly as a single `POST /api/auth/v1/eligibility/`; one invalid ' +
      'item refuses the whole batch, with every error keyed by the item index ' +
      '(`errors.items.17.patient.dob.$`). Each item becomes an ordinary eligibility request (its ' +
      'own `request_uid`, result and webhook deliveries). Single checks always run first; batch ' +
      'items share the insurer capacity they leave. Bodies up to 16 MiB. When the last item ' +
      'finishes, webhooks subscribed to `batch` receive the batch (`X-Event-Type: ' +
      'eligibility.batch_finished`).',
  })
  @ApiBody({ type: CreateBatchDto })
  async create(
    @Req() req: AppRequest,
    // Validated by the intake (CreateBatchDto a slice at a time), not by the global pipe.
    @Body() body: Record<string, unknown>,
  ): Promise<BatchCreatedResponse> {
    const { uid, count } = await this.intake.create(req.auth!.accountId, body, {
      apiKeyId: req.auth!.apiKeyId,
    });
    return { batch_uid: uid, status: 'processing', count };
  }

  @ApiRead(':batch_uid', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_batch', 'read', 'param:batch_uid'),
    summary: 'A batch: status and item counts',
    param: BATCH_UID,
    answer: BatchResponse,
    errors: [NOT_FOUND],
  })
  get(@Req() req: AppRequest, @Param('batch_uid') uid: string): Promise<BatchResponse> {
    return this.queries.get(req.auth!.accountId, uid);
  }

  @ApiRead(':batch_uid/items', {
    scope: 'eligibility:read',
    audit: Audited('eligibility_batch', 'list', 'param:batch_uid'),
    param: BATCH_UID,
    answer: BatchItemsPage,
    errors: [NOT_FOUND, INVALID_CURSOR],
    summary: "A batch's items",
    description:
      'In the order they were sent; pass `next_cursor` back as `cursor` until it is null. Each ' +
      "item's result: GET /api/auth/v2/eligibility/{request_uid}/.",
  })
  items(
    @Req() req: AppRequest,
    @Param('batch_uid') uid: string,
    @Query() query: BatchItemsQuery,
  ): Promise<BatchItemsPage> {
    return this.queries.items(req.auth!.accountId, uid, query);
  }
}
