import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ValidationFailed } from '@/common/errors';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { InsurerSettingsService } from '@/modules/insurers/insurer-settings.service';
import { CreateWebhookDto, UpdateWebhookDto } from '@/modules/webhooks/dto/webhook.dto';
import { WebhooksService } from '@/modules/webhooks/webhooks.service';
import { formFields, validateForm } from './form-validation';
import { flash, renderPage, webUser } from './web-context';

/** API keys, webhooks, insurers, passwords, locations and embedding settings. */
@ApiExcludeController()
@Controller('app')
export class WebSettingsController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly webhooks: WebhooksService,
    private readonly insurers: InsurerSettingsService,
    private readonly accounts: AccountsService,
  ) {}

  // API keys ---------------------------------------------------------------------------------

  @Get('api-keys')
  async keys(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderKeys(req, res, null, null);
  }

  @Post('api-keys')
  async createKey(@Req() req: Request, @Res() res: Response): Promise<void> {
    const name = (formFields(req.body).name ?? '').trim();
    if (!name || name.length > 100) {
      const message = name
        ? 'Ensure this field has no more than 100 characters.'
        : 'This field may not be blank.';
      return this.renderKeys(req, res.status(400), null, { name: { $: [message] } });
    }
    const { key } = await this.apiKeys.create(webUser(req)!.accountId, name);
    // Shown once, in this answer only.
    res.setHeader('Cache-Control', 'no-store');
    await this.renderKeys(req, res, key, null);
  }

  @Post('api-keys/:id/revoke')
  async revokeKey(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return res.redirect('/app/api-keys/');
    const key = await this.apiKeys.revoke(webUser(req)!.accountId, id);
    flash(req, 'ok', `Key ${key.prefix}… revoked.`);
    res.redirect('/app/api-keys/');
  }

  private async renderKeys(req: Request, res: Response, newKey: string | null, errors: unknown) {
    const keys = await this.apiKeys.list(webUser(req)!.accountId);
    renderPage(req, res, 'api-keys.njk', {
      title: 'API keys',
      section: 'api-keys',
      keys,
      newKey,
      errors,
    });
  }

  // Webhooks ---------------------------------------------------------------------------------

  @Get('webhooks')
  async webhookList(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderWebhooks(req, res, {}, null);
  }

  @Post('webhooks')
  async createWebhook(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const { value, errors } = await validateForm(CreateWebhookDto, {
      url: form.url,
      description: form.description,
      version: form.version,
    });
    if (errors) return this.renderWebhooks(req, res.status(400), form, errors);
    try {
      const { webhook, secret } = await this.webhooks.create(webUser(req)!.accountId, {
        url: value.url,
        description: value.description,
        version: value.version,
        rotateSecret: form.generate_secret === 'true',
      });
      res.setHeader('Cache-Control', 'no-store');
      await this.renderWebhook(req, res, webhook.id, secret, null, null);
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.renderWebhooks(req, res.status(400), form, e.errors);
      throw e;
    }
  }

  private async renderWebhooks(
    req: Request,
    res: Response,
    form: Record<string, string>,
    errors: unknown,
  ) {
    const webhooks = await this.webhooks.list(webUser(req)!.accountId);
    renderPage(req, res, 'webhooks.njk', {
      title: 'Webhooks',
      section: 'webhooks',
      webhooks,
      form,
      errors,
    });
  }

  @Get('webhooks/:id')
  async webhookPage(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    await this.renderWebhook(req, res, id, null, null, null);
  }

  @Post('webhooks/:id')
  async updateWebhook(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const form = formFields(req.body);
    const { value, errors } = await validateForm(UpdateWebhookDto, {
      url: form.url,
      description: form.description ?? '',
      version: form.version,
    });
    if (errors) return this.renderWebhook(req, res.status(400), id, null, form, errors);
    try {
      await this.webhooks.update(webUser(req)!.accountId, id, {
        url: value.url,
        description: value.description ?? '',
        version: value.version,
        isActive: form.is_active === 'true',
      });
      flash(req, 'ok', 'Webhook saved.');
      res.redirect(`/app/webhooks/${id}`);
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.renderWebhook(req, res.status(400), id, null, form, e.errors);
      throw e;
    }
  }

  @Post('webhooks/:id/rotate')
  async rotateSecret(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const { secret } = await this.webhooks.update(webUser(req)!.accountId, id, {
      rotateSecret: true,
    });
    res.setHeader('Cache-Control', 'no-store');
    await this.renderWebhook(req, res, id, secret, null, null);
  }

  @Post('webhooks/:id/delete')
  async deleteWebhook(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    await this.webhooks.remove(webUser(req)!.accountId, id);
    flash(req, 'ok', 'Webhook deleted.');
    res.redirect('/app/webhooks/');
  }

  @Post('webhooks/:id/deliveries/:deliveryId/redeliver')
  async redeliver(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    const { delivery } = await this.webhooks.redeliver(webUser(req)!.accountId, id, deliveryId);
    flash(
      req,
      delivery.status === 'succeeded' ? 'ok' : 'error',
      delivery.status === 'succeeded'
        ? 'Redelivered.'
        : 'The receiver did not accept the redelivery.',
    );
    res.redirect(`/app/webhooks/${id}`);
  }

  private async renderWebhook(
    req: Request,
    res: Response,
    id: string,
    newSecret: string | null,
    form: Record<string, string> | null,
    errors: unknown,
  ) {
    const accountId = webUser(req)!.accountId;
    const webhook = await this.webhooks.get(accountId, id);
    const { result } = await this.webhooks.listDeliveries(accountId, id, 50);
    renderPage(req, res, 'webhook.njk', {
      title: 'Webhook',
      section: 'webhooks',
      webhook,
      deliveries: result,
      newSecret,
      errors,
      form: form
        ? { ...form, isActive: form.is_active === 'true' }
        : {
            url: webhook.url,
            description: webhook.description,
            version: webhook.version,
            isActive: webhook.isActive,
          },
    });
  }

  // Insurers and passwords -------------------------------------------------------------------

  @Get('insurers')
  async insurerList(@Req() req: Request, @Res() res: Response): Promise<void> {
    const insurers = await this.insurers.list(webUser(req)!.accountId);
    renderPage(req, res, 'insurers.njk', { title: 'Insurers', section: 'insurers', insurers });
  }

  @Post('insurers/toggle')
  async toggleInsurer(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    await this.insurers.setEnabled(
      webUser(req)!.accountId,
      form.insurer_code ?? '',
      form.enabled === 'true',
    );
    flash(req, 'ok', `${form.insurer_code} ${form.enabled === 'true' ? 'enabled' : 'disabled'}.`);
    res.redirect('/app/insurers/');
  }

  @Get('passwords')
  async passwords(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderPasswords(req, res, null, null);
  }

  @Post('passwords')
  async setPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    try {
      await this.insurers.setCredentials(
        webUser(req)!.accountId,
        form.insurer_code ?? '',
        form.username ?? '',
        form.password ?? '',
      );
      flash(req, 'ok', 'Password saved.');
      res.redirect('/app/passwords/');
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.renderPasswords(req, res.status(400), form.insurer_code ?? null, e.errors);
      throw e;
    }
  }

  @Post('passwords/delete')
  async deletePassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.insurers.deleteCredentials(
      webUser(req)!.accountId,
      formFields(req.body).insurer_code ?? '',
    );
    flash(req, 'ok', 'Password deleted.');
    res.redirect('/app/passwords/');
  }

  private async renderPasswords(
    req: Request,
    res: Response,
    errorCode: string | null,
    errors: unknown,
  ) {
    const insurers = await this.insurers.list(webUser(req)!.accountId);
    renderPage(req, res, 'passwords.njk', {
      title: 'Passwords',
      section: 'passwords',
      insurers,
      errorCode,
      errors,
    });
  }

  // Locations and settings -------------------------------------------------------------------

  @Get('locations')
  async locations(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderLocations(req, res, null);
  }

  @Post('locations')
  async createLocation(@Req() req: Request, @Res() res: Response): Promise<void> {
    const title = (formFields(req.body).title ?? '').trim();
    if (!title || title.length > 200) {
      const message = title
        ? 'Ensure this field has no more than 200 characters.'
        : 'This field may not be blank.';
      return this.renderLocations(req, res.status(400), { title: { $: [message] } });
    }
    const location = await this.accounts.createLocation(webUser(req)!.accountId, title);
    flash(req, 'ok', `Location ${location.code} added.`);
    res.redirect('/app/locations/');
  }

  private async renderLocations(req: Request, res: Response, errors: unknown) {
    const locations = await this.accounts.listLocations(webUser(req)!.accountId);
    renderPage(req, res, 'locations.njk', {
      title: 'Locations',
      section: 'locations',
      locations,
      errors,
    });
  }

  @Get('settings')
  async settings(@Req() req: Request, @Res() res: Response): Promise<void> {
    const account = await this.accounts.getAccount(webUser(req)!.accountId);
    renderPage(req, res, 'settings.njk', { title: 'Settings', section: 'settings', account });
  }

  @Post('settings')
  async saveSettings(@Req() req: Request, @Res() res: Response): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const lines = (formFields(req.body).frame_ancestors ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const bad = lines.find((l) => !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(l));
    const account = await this.accounts.getAccount(accountId);
    if (bad || lines.length > 20) {
      res.status(400);
      return renderPage(req, res, 'settings.njk', {
        title: 'Settings',
        section: 'settings',
        account: { ...account, frameAncestors: lines },
        error: bad ? `Not an origin: ${bad} (use scheme://host[:port])` : 'At most 20 origins.',
      });
    }
    await this.accounts.updateAccount(accountId, { frameAncestors: lines });
    flash(req, 'ok', 'Settings saved.');
    res.redirect('/app/settings/');
  }
}
