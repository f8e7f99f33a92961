import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { CreateWebhookDto, UpdateWebhookDto } from '../dto/webhook.dto';
import { WEBHOOK_TOPICS, type WebhookTopic } from '../webhook-topics';
import { type WebhookActor, WebhooksService } from '../webhooks.service';
import { auditContextOf } from '@/modules/audit';
import {
  accountOf,
  AdminOnly,
  bindForm,
  formFields,
  redirectWith,
  renderPage,
  submitForm,
} from '@/modules/web';

/** The checked `events` boxes of a webhook form (one value or several); none → the default. */
function checkedEvents(body: unknown): string[] | undefined {
  const raw = (body as { events?: unknown } | undefined)?.events;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const events = list.filter((v): v is string => typeof v === 'string');
  return events.length > 0 ? events : undefined;
}

/** Every topic the API takes, in words: the forms list them all, so saving never drops one. */
const TOPIC_LABELS: Record<WebhookTopic, string> = {
  eligibility: 'Eligibility results',
  claim: 'Claim status changes',
  batch: 'Finished batches',
  remittance: 'Remittances (835 payments)',
  verification: 'Verification tasks (created, overdue)',
};
const TOPICS = WEBHOOK_TOPICS.map((topic) => ({ topic, label: TOPIC_LABELS[topic] }));

/** A web user manages webhooks by role, not by API key scopes; the changes are audited. */
function managerOf(req: Request): WebhookActor {
  const ctx = auditContextOf(req);
  if (!ctx) throw new Error('A webhook page was served without a signed-in user.');
  return { ctx, scopes: null };
}

/** Webhooks: add, edit, rotate the secret, delete, and the delivery log with redelivery. */
@ApiExcludeController()
@AdminOnly()
@Controller('app/webhooks')
export class WebWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderList(req, res, {}, null);
  }

  @Post()
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(CreateWebhookDto, {
          url: form.url,
          description: form.description,
          version: form.version,
          events: checkedEvents(req.body),
          generate_secret: form.generate_secret === 'true',
        });
        const { webhook, secret } = await this.webhooks.create(managerOf(req), {
          url: body.url,
          description: body.description,
          version: body.version,
          events: body.events,
          rotateSecret: body.generate_secret ?? false,
        });
        res.setHeader('Cache-Control', 'no-store');
        await this.renderWebhook(req, res, webhook.id, { newSecret: secret });
      },
      (errors) => this.renderList(req, res, form, errors),
    );
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.renderWebhook(req, res, id, {});
  }

  @Post(':id')
  async update(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      async () => {
        // Every field of the edit form is sent, as a PATCH with all of them would be.
        const body = await bindForm(
          UpdateWebhookDto,
          {
            url: form.url ?? '',
            description: form.description ?? '',
            version: form.version,
            // No box checked keeps the webhook's topics (it needs at least one).
            events: checkedEvents(req.body),
            is_active: form.is_active === 'true',
          },
          { keepBlank: true },
        );
        await this.webhooks.update(managerOf(req), id, {
          url: body.url,
          description: body.description,
          version: body.version,
          events: body.events,
          isActive: body.is_active,
        });
        redirectWith(req, res, `/app/webhooks/${id}`, 'Webhook saved.');
      },
      (errors) => this.renderWebhook(req, res, id, { form, errors }),
    );
  }

  @Post(':id/rotate')
  async rotateSecret(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const { secret } = await this.webhooks.update(managerOf(req), id, { rotateSecret: true });
    res.setHeader('Cache-Control', 'no-store');
    await this.renderWebhook(req, res, id, { newSecret: secret });
  }

  @Post(':id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(managerOf(req), id);
    redirectWith(req, res, '/app/webhooks/', 'Webhook deleted.');
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  async redeliver(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    const { delivery } = await this.webhooks.redeliver(managerOf(req), id, deliveryId);
    const ok = delivery.status === 'succeeded';
    redirectWith(
      req,
      res,
      `/app/webhooks/${id}`,
      ok ? 'Redelivered.' : 'The receiver did not accept the redelivery.',
      ok ? 'ok' : 'error',
    );
  }

  private async renderList(
    req: Request,
    res: Response,
    form: Record<string, string>,
    errors: ErrorTree | null,
  ): Promise<void> {
    const webhooks = await this.webhooks.list(accountOf(req));
    renderPage(req, res, 'webhooks.njk', {
      title: 'Webhooks',
      section: 'webhooks',
      webhooks,
      topics: TOPICS,
      form: { ...form, events: checkedEvents(req.body) },
      errors,
    });
  }

  /** The webhook's page; `form` is what was typed when the edit form is shown again. */
  private async renderWebhook(
    req: Request,
    res: Response,
    id: string,
    {
      newSecret = null,
      form = null,
      errors = null,
    }: {
      newSecret?: string | null;
      form?: Record<string, string> | null;
      errors?: ErrorTree | null;
    },
  ): Promise<void> {
    const accountId = accountOf(req);
    const webhook = await this.webhooks.get(accountId, id);
    const { result } = await this.webhooks.listDeliveries(accountId, id, 50);
    renderPage(req, res, 'webhook.njk', {
      title: 'Webhook',
      section: 'webhooks',
      webhook,
      deliveries: result,
      topics: TOPICS,
      newSecret,
      errors,
      form: form
        ? {
            ...form,
            events: checkedEvents(req.body) ?? [],
            isActive: form.is_active === 'true',
          }
        : {
            events: webhook.events,
            url: webhook.url,
            description: webhook.description,
            version: webhook.version,
            isActive: webhook.isActive,
          },
    });
  }
}
