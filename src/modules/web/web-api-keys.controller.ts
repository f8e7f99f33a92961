import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { auditContextOf } from '@/modules/audit';
import {
  ALL_SCOPES,
  ApiKeysService,
  CREDENTIALS_SCOPE,
  isApiScope,
  SCOPE_AREAS,
} from '@/modules/auth';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { bindForm, formFields, submitForm } from './forms';
import { accountOf, redirectWith, renderPage } from './web-context';
import { AdminOnly } from './web-roles';

const UUID = /^[0-9a-f-]{36}$/;

/** The scopes a form chose (checkboxes: a repeated field is an array, a single one a string). */
function chosenScopes(body: unknown): string[] {
  const raw = (body as Record<string, unknown> | undefined)?.scopes;
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
}

/** API keys: create with their scopes (the key is shown once), list, revoke. */
@ApiExcludeController()
@AdminOnly()
@Controller('app/api-keys')
export class WebApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, {});
  }

  @Post()
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await submitForm(
      res,
      async () => {
        const form = await bindForm(CreateApiKeyDto, {
          name: formFields(req.body).name,
          scopes: chosenScopes(req.body),
        });
        const { key } = await this.apiKeys.create(
          accountOf(req),
          form.name,
          form.scopes.filter(isApiScope),
          auditContextOf(req)!,
        );
        // Shown once, in this answer only.
        res.setHeader('Cache-Control', 'no-store');
        await this.render(req, res, { newKey: key });
      },
      (errors) => this.render(req, res, { errors, chosen: chosenScopes(req.body) }),
    );
  }

  @Post(':id/revoke')
  async revoke(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!UUID.test(id)) return res.redirect('/app/api-keys/');
    const key = await this.apiKeys.revoke(accountOf(req), id, auditContextOf(req)!);
    redirectWith(req, res, '/app/api-keys/', `Key ${key.prefix}… revoked.`);
  }

  private async render(
    req: Request,
    res: Response,
    {
      newKey = null,
      errors = null,
      chosen = [...ALL_SCOPES],
    }: { newKey?: string | null; errors?: ErrorTree | null; chosen?: string[] },
  ): Promise<void> {
    const keys = await this.apiKeys.list(accountOf(req));
    renderPage(req, res, 'api-keys.njk', {
      title: 'API keys',
      section: 'api-keys',
      keys,
      newKey,
      errors,
      areas: SCOPE_AREAS,
      credentialsScope: CREDENTIALS_SCOPE,
      chosen,
    });
  }
}
