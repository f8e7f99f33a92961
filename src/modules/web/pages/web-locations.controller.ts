import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { AccountsService, CreateLocationDto, UpdateLocationDto } from '@/modules/accounts';
import { auditContextOf } from '@/modules/audit';
import { FormPage } from '../form-page';
import { bindForm } from '../forms';
import { accountOf, redirectWith } from '../web-context';
import { AdminOnly } from '../web-roles';

/**
 * The account's locations: the add form mirrors POST /api/auth/v1/locations/, each location's
 * provider-identity form mirrors PATCH /api/auth/v1/locations/{code}/ (a cleared field clears).
 */
@PageController('app/locations', AdminOnly())
export class WebLocationsController {
  constructor(private readonly accounts: AccountsService) {}

  /** The locations; `location` names the form refused (`new`, or the code of the one edited). */
  private readonly page = new FormPage<{ location?: string }>(
    { view: 'locations.njk', title: 'Locations', section: 'locations' },
    async (req, { location, form, errors }) => ({
      locations: await this.accounts.listLocations(accountOf(req)),
      failed: errors ? { form: location, errors, values: form } : null,
    }),
  );

  @PageRead()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  @PageWrite()
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, { location: 'new' }, async (form) => {
      const body = await bindForm(CreateLocationDto, {
        title: form.title,
        npi: form.npi,
        organization_name: form.organization_name,
        tax_id: form.tax_id,
      });
      const location = await this.accounts.createLocation(
        accountOf(req),
        body,
        auditContextOf(req)!,
      );
      redirectWith(req, res, '/app/locations/', `Location ${location.code} added.`);
    });
  }

  @PageWrite(':code')
  async update(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    const cleared = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v);
    await this.page.post(req, res, { location: code }, async (form) => {
      const body = await bindForm(UpdateLocationDto, {
        title: form.title,
        npi: cleared(form.npi),
        organization_name: cleared(form.organization_name),
        tax_id: cleared(form.tax_id),
        address: addressOf(form),
        taxonomy_code: form.taxonomy_code?.trim() ? form.taxonomy_code : undefined,
        // docs/api.md, Locations: the Schedule shows its visits in this zone; blank clears it.
        time_zone: cleared(form.time_zone),
        rendering_provider: renderingProviderOf(form),
      });
      const location = await this.accounts.updateLocation(
        accountOf(req),
        code,
        body,
        auditContextOf(req)!,
      );
      redirectWith(req, res, '/app/locations/', `Location ${location.code} saved.`);
    });
  }
}

/** The address fields of a form: all blank clears the address; any given is checked in full. */
function addressOf(form: Record<string, string>): Record<string, string> | null {
  const fields = ['line1', 'line2', 'city', 'state', 'zipcode'] as const;
  const values = Object.fromEntries(fields.map((f) => [f, form[`address_${f}`] ?? '']));
  return fields.some((f) => values[f].trim() !== '') ? values : null;
}

/**
 * The rendering provider fields of a form (docs/api.md, Claims): all blank clears it; any given is checked
 * in full (a blank taxonomy: the location's).
 */
function renderingProviderOf(form: Record<string, string>): Record<string, string> | null {
  const fields = ['npi', 'first_name', 'last_name', 'taxonomy_code'] as const;
  const values = Object.fromEntries(fields.map((f) => [f, form[`rendering_${f}`] ?? '']));
  if (!fields.some((f) => values[f].trim() !== '')) return null;
  if (values.taxonomy_code.trim() === '') delete values.taxonomy_code;
  return values;
}
