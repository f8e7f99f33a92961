import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { CreateWebhookDto, UpdateWebhookDto } from '../api/dto/webhook.dto';
import { WEBHOOK_EVENT_TYPES } from '@/platform/http/api-document';
import { WEBHOOK_TOPICS, type WebhookTopic } from '../domain/webhook-topics';
import { topicOfEvent } from '../domain/webhook-scopes';
import { type WebhookActor, WebhooksService } from '../domain/webhooks.service';
import { auditContextOf } from '@/modules/audit';
import {
  accountOf,
  AdminOnly,
  bindForm,
  checkedValues,
  FormPage,
  redirectWith,
} from '@/modules/web';

/** The checked `events` boxes of a webhook form (one value or several); none → the default. */
function checkedEvents(body: unknown): string[] | undefined {
  const events = checkedValues(body, 'events');
  return events.length > 0 ? events : undefined;
}

/** Every topic the API takes, in words: the forms list them all, so saving never drops one. */
const TOPIC_LABELS: Record<WebhookTopic, string> = {
  eligibility: 'Eligibility results',
  claim: 'Claim status changes',
  batch: 'Finished batches',
  remittance: 'Remittances (835 payments)',
  verification: 'Verification tasks (created, overdue)',
  appointment: 'Appointment checks (checked, coverage changed)',
};
/** Each topic with its event types, from the one list of them (docs/api.md, Webhooks). */
const TOPICS = WEBHOOK_TOPICS.map((topic) => ({
  topic,
  label: TOPIC_LABELS[topic],
  events: WEBHOOK_EVENT_TYPES.filter((type) => topicOfEvent(type) === topic),
}));

/** A web user manages webhooks by role, not by API key scopes; the changes are audited. */
function managerOf(req: Request): WebhookActor {
  const ctx = auditContextOf(req);
  if (!ctx) throw new Error('A webhook page was served without a signed-in user.');
  return { ctx, scopes: null };
}

/** Webhooks: add, edit, rotate the secret, delete, and the delivery log with redelivery. */
@PageController('app/webhooks', AdminOnly())
export class WebWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** The list with the add form; `form` is what was typed when the form is shown again. */
  private readonly listPage = new FormPage(
    { view: 'webhooks.njk', title: 'Webhooks', section: 'webhooks' },
    async (req, { form, errors }) => ({
      webhooks: await this.webhooks.list(accountOf(req)),
      topics: TOPICS,
      form: { ...form, events: checkedEvents(req.body) },
      errors,
    }),
  );

  /** The webhook's page: a new secret shown once, or the edit form refused as it was typed. */
  private readonly webhookPage = new FormPage<{ id: string; newSecret?: string | null }>(
    { view: 'webhook.njk', title: 'Webhook', section: 'webhooks' },
    async (req, { id, newSecret = null, form, errors }) => {
      const accountId = accountOf(req);
      const webhook = await this.webhooks.get(accountId, id);
      const { result } = await this.webhooks.listDeliveries(accountId, id, 50);
      return {
        webhook,
        deliveries: result,
        topics: TOPICS,
        newSecret,
        errors,
        form: errors
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
      };
    },
  );

  @PageRead()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.listPage.show(req, res, {});
  }

  @PageWrite()
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.listPage.post(req, res, {}, async (form) => {
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
      await this.webhookPage.show(req, res, { id: webhook.id, newSecret: secret });
    });
  }

  @PageRead(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhookPage.show(req, res, { id });
  }

  @PageWrite(':id')
  async update(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhookPage.post(req, res, { id }, async (form) => {
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
    });
  }

  @PageWrite(':id/rotate')
  async rotateSecret(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const { secret } = await this.webhooks.update(managerOf(req), id, { rotateSecret: true });
    res.setHeader('Cache-Control', 'no-store');
    await this.webhookPage.show(req, res, { id, newSecret: secret });
  }

  @PageWrite(':id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(managerOf(req), id);
    redirectWith(req, res, '/app/webhooks/', 'Webhook deleted.');
  }

  @PageWrite(':id/deliveries/:deliveryId/redeliver')
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
}
