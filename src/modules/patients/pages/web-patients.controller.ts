import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { AccountsService } from '@/modules/accounts';
import { CreatePatientDto } from '../dto/create-patient.dto';
import { LinkEligibilityDto } from '../dto/patient-link.dto';
import { ListPatientsQuery } from '../dto/list-patients.query';
import { PatientLinksService } from '../patient-links.service';
import { PatientsService } from '../patients.service';
import {
  accountOf,
  bindForm,
  EmbeddedReach,
  formFields,
  listPage,
  redirectWith,
  renderPage,
  submitForm,
} from '@/modules/web';
import { Audited } from '@/modules/audit';

/** Patients: search, add (POST /api/auth/v1/patients/), a patient's page and its linked checks. */
@ApiExcludeController()
@Controller('app/patients')
export class WebPatientsController {
  constructor(
    private readonly patients: PatientsService,
    private readonly links: PatientLinksService,
    private readonly accounts: AccountsService,
  ) {}

  @Get()
  @Audited('patient', 'list')
  async list(
    @Req() req: Request,
    @Res() res: Response,
    @Query() raw: Record<string, unknown>,
  ): Promise<void> {
    const query = { search: str(raw.search), dob: str(raw.dob), cursor: str(raw.cursor) };
    const page = await listPage(ListPatientsQuery, query, (filters) =>
      this.patients.list(accountOf(req), filters),
    );
    const params = (extra: Record<string, string>) =>
      new URLSearchParams(
        Object.entries<string>({ search: query.search, dob: query.dob, ...extra }).filter(
          ([, v]) => v,
        ),
      ).toString();
    renderPage(req, res, 'patients.njk', {
      title: 'Patients',
      section: 'patients',
      patients: page.result,
      nextCursor: page.next_cursor,
      query,
      nextPageQuery: params({ cursor: page.next_cursor ?? '' }),
      firstPageQuery: params({}),
    });
  }

  @Get('new')
  @EmbeddedReach('add_patient')
  async newPatient(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderPatientForm(req, res, {}, null);
  }

  @Post('new')
  @EmbeddedReach('add_patient')
  @Audited('patient', 'create', 'location')
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(CreatePatientDto, {
          ...form,
          force_similar: form.force_similar === 'true' ? true : undefined,
        });
        const patient = await this.patients.create(accountOf(req), body);
        redirectWith(req, res, `/app/patients/${patient.code}/`, `Patient ${patient.code} saved.`);
      },
      (errors) => this.renderPatientForm(req, res, form, errors),
    );
  }

  @Get(':code')
  @EmbeddedReach('add_patient', { kind: 'patient', from: 'param:code' })
  @Audited('patient', 'read', 'param:code')
  async show(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    await this.renderPatient(req, res, code, null);
  }

  /** Mirrors POST /api/auth/v1/patients/{code}/eligibility/. */
  @Post(':code/link')
  @EmbeddedReach('add_patient', { kind: 'patient', from: 'param:code' })
  @Audited('patient', 'link', 'param:code')
  async link(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    await submitForm(
      res,
      async () => {
        const body = await bindForm(LinkEligibilityDto, {
          request_uid: formFields(req.body).request_uid,
        });
        await this.links.link(accountOf(req), code, body.request_uid);
        res.redirect(`/app/patients/${encodeURIComponent(code)}/`);
      },
      (errors) => this.renderPatient(req, res, code, errors),
    );
  }

  private async renderPatient(
    req: Request,
    res: Response,
    code: string,
    errors: ErrorTree | null,
  ): Promise<void> {
    const accountId = accountOf(req);
    const patient = await this.patients.getByCode(accountId, code);
    const links = await this.links.list(accountId, code);
    renderPage(req, res, 'patient.njk', {
      title: 'Patient',
      section: 'patients',
      patient,
      links,
      errors,
    });
  }

  private async renderPatientForm(
    req: Request,
    res: Response,
    form: Record<string, string>,
    errors: ErrorTree | null,
  ): Promise<void> {
    const locations = await this.accounts.listLocations(accountOf(req));
    renderPage(req, res, 'patient-new.njk', {
      title: 'Add patient',
      section: 'patients',
      form,
      errors,
      locations,
    });
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
