import { Body, Param, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { type ApiRouteDoc, ApiRead, ApiRoute, ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import {
  CreateWebhookDto,
  DeliveryListQuery,
  DeliveryListResponse,
  DeliveryResponse,
  UpdateWebhookDto,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhook.dto';
import { type WebhookActor, type WebhookInput, WebhooksService } from '../domain/webhooks.service';
import { auditContextOf, NotPatientData } from '@/modules/audit';

const WEBHOOK_SCOPES_NOTE =
  'Besides `webhooks:write` the key needs the read scope of the data the events carry ' +
  '(`eligibility:read` for eligibility and batch events, `claims:read` for claim and remittance ' +
  'events, `verification:read` for verification events, `appointments:read` and ' +
  '`eligibility:read` for appointment events), or 403; ' +
  'each change is an audit event (SECURITY.md).';

/** The calling key, for the audit trail and the scopes its webhook's topics need (SECURITY.md). */
function actorOf(req: AppRequest): WebhookActor {
  return { ctx: auditContextOf(req)!, scopes: req.auth!.scopes };
}

const NOT_FOUND: [404, unknown] = [
  404,
  { detail: 'Webhook 5b0c6f9e-1d2a-4c53-9a55-0f1b8f3c2d11 not found.' },
];

/** A route on one webhook (its settings, not patient data), by its id. */
const READ: Omit<ApiRouteDoc, 'summary'> = {
  scope: 'webhooks:read',
  audit: NotPatientData(),
  errors: [NOT_FOUND],
};
const WRITE: Omit<ApiRouteDoc, 'summary'> = { ...READ, scope: 'webhooks:write' };

/** The service's input from a create or an update body; `rotateSecret` as the body asks it. */
function webhookInput(
  body: CreateWebhookDto | UpdateWebhookDto,
  rotateSecret: boolean,
): WebhookInput {
  return {
    url: body.url,
    secret: body.secret,
    rotateSecret,
    isActive: body.is_active,
    description: body.description,
    version: body.version,
    events: body.events,
    allowNonstandardPort: body.allow_nonstandard_port,
  };
}

@ApiController('Webhooks', 'api/auth/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ApiWrite('', 201, {
    scope: 'webhooks:write',
    audit: NotPatientData(),
    answer: WebhookResponse,
    errors: [
      [
        400,
        { errors: { url: { $: ['Private, loopback and link-local addresses are not allowed.'] } } },
      ],
    ],
    summary: 'Create a webhook',
    description:
      'Every eligibility result (search or details, complete or error) is POSTed to each active webhook: exactly the ' +
      'bytes of the GET result of the webhook version, with X-Signature, X-Delivery-Id and the Standard Webhooks headers. ' +
      'Any 2xx is success; failures are retried on WEBHOOK_RETRY_SCHEDULE (about a day, 9 attempts by default). ' +
      'Verify `webhook-signature` (Standard Webhooks: it signs the id and timestamp with the body, so a replayed ' +
      'delivery is refused) rather than the legacy `X-Signature`. ' +
      WEBHOOK_SCOPES_NOTE,
  })
  async create(@Req() req: AppRequest, @Body() body: CreateWebhookDto): Promise<WebhookResponse> {
    const { webhook, secret } = await this.webhooks.create(
      actorOf(req),
      webhookInput(body, body.generate_secret ?? false),
    );
    return WebhookResponse.from(webhook, secret);
  }

  @ApiRead('', {
    scope: 'webhooks:read',
    audit: NotPatientData(),
    summary: "List the account's webhooks",
    answer: WebhookListResponse,
  })
  async list(@Req() req: AppRequest): Promise<WebhookListResponse> {
    return {
      result: (await this.webhooks.list(req.auth!.accountId)).map((w) => WebhookResponse.from(w)),
    };
  }

  @ApiRead(':id', { ...READ, summary: 'Get a webhook', answer: WebhookResponse })
  async get(@Req() req: AppRequest, @Param('id') id: string): Promise<WebhookResponse> {
    return WebhookResponse.from(await this.webhooks.get(req.auth!.accountId, id));
  }

  @ApiRoute('patch', ':id', undefined, {
    ...WRITE,
    answer: WebhookResponse,
    errors: [400, NOT_FOUND],
    summary:
      'Update a webhook (deactivate, change URL or version, set, rotate or remove the secret)',
    description: `Changing \`url\`, \`events\` or the secret: ${WEBHOOK_SCOPES_NOTE}`,
  })
  async update(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    const { webhook, secret } = await this.webhooks.update(
      actorOf(req),
      id,
      webhookInput(body, body.rotate_secret ?? false),
    );
    return WebhookResponse.from(webhook, secret);
  }

  @ApiRoute('delete', ':id', 204, { ...WRITE, summary: 'Delete a webhook and its delivery log' })
  @ApiNoContentResponse()
  async remove(@Req() req: AppRequest, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(actorOf(req), id);
  }

  @ApiRead(':id/deliveries', {
    ...READ,
    summary: "A webhook's deliveries, newest first, with every attempt",
    answer: DeliveryListResponse,
    errors: [400, NOT_FOUND],
  })
  async deliveries(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Query() query: DeliveryListQuery,
  ): Promise<DeliveryListResponse> {
    const page = await this.webhooks.listDeliveries(
      req.auth!.accountId,
      id,
      query.limit ?? 50,
      query.cursor,
    );
    return {
      result: page.result.map(({ delivery, attempts }) =>
        DeliveryResponse.from(delivery, attempts),
      ),
      next_cursor: page.next_cursor,
    };
  }

  @ApiWrite(':id/deliveries/:delivery_id/redeliver', 200, {
    ...WRITE,
    answer: DeliveryResponse,
    errors: [[404, { detail: 'Delivery 0d3c2a8e-7b61-4f0e-8d7c-3b8b1e0c9a47 not found.' }]],
    summary: 'Redeliver: one new attempt of the same delivery, made now',
    description:
      'Same body and X-Delivery-Id. A 2xx answer ends the delivery `succeeded`. Answers the delivery with its attempts. ' +
      WEBHOOK_SCOPES_NOTE,
  })
  async redeliver(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<DeliveryResponse> {
    const { delivery, attempts } = await this.webhooks.redeliver(actorOf(req), id, deliveryId);
    return DeliveryResponse.from(delivery, attempts);
  }
}
