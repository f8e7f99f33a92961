import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { auditContextOf } from '@/modules/audit';
import {
  ALL_SCOPES,
  ApiKeysService,
  CREDENTIALS_SCOPE,
  isApiScope,
  SCOPE_AREAS,
} from '@/modules/auth';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { FormPage } from '../form-page';
import { bindForm, checkedValues } from '../forms';
import { accountOf, redirectWith } from '../web-context';
import { AdminOnly } from '../web-roles';
import { isUuid } from '@/platform/kernel/codes';

/** The scopes a form chose. */
const chosenScopes = (body: unknown) => checkedValues(body, 'scopes');

/** API keys: create with their scopes (the key is shown once), list, revoke. */
@PageController('app/api-keys', AdminOnly())
export class WebApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /** `newKey` is shown once; the scopes ticked are all of them, or those of a refused form. */
  private readonly page = new FormPage<{ newKey?: string }>(
    { view: 'api-keys.njk', title: 'API keys', section: 'api-keys' },
    async (req, { newKey = null, errors }) => ({
      keys: await this.apiKeys.list(accountOf(req)),
      newKey,
      errors,
      areas: SCOPE_AREAS,
      credentialsScope: CREDENTIALS_SCOPE,
      chosen: errors ? chosenScopes(req.body) : [...ALL_SCOPES],
    }),
  );

  @PageRead()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  @PageWrite()
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, {}, async (fields) => {
      const form = await bindForm(CreateApiKeyDto, {
        name: fields.name,
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
      await this.page.show(req, res, { newKey: key });
    });
  }

  @PageWrite(':id/revoke')
  async revoke(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!isUuid(id)) return res.redirect('/app/api-keys/');
    const key = await this.apiKeys.revoke(accountOf(req), id, auditContextOf(req)!);
    redirectWith(req, res, '/app/api-keys/', `Key ${key.prefix}… revoked.`);
  }
}
