import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { AccountsService } from '@/modules/accounts';
import { CreatePatientDto } from '../api/dto/create-patient.dto';
import { LinkEligibilityDto } from '../api/dto/patient-link.dto';
import { ListPatientsQuery } from '../api/dto/list-patients.query';
import { PatientLinksService } from '../domain/patient-links.service';
import { PatientsService } from '../domain/patients.service';
import {
  accountOf,
  bindForm,
  EmbeddedReach,
  FormPage,
  ListPage,
  redirectWith,
} from '@/modules/web';
import { Audited } from '@/modules/audit';

/** A patient's pages: an embedded session opened at `add_patient` reaches the ones it added. */
const OF_PATIENT = EmbeddedReach('add_patient', { kind: 'patient', from: 'param:code' });

/** Patients: search, add (POST /api/auth/v1/patients/), a patient's page and its linked checks. */
@PageController('app/patients')
export class WebPatientsController {
  constructor(
    private readonly patients: PatientsService,
    private readonly links: PatientLinksService,
    private readonly accounts: AccountsService,
  ) {}

  private readonly listPage = new ListPage(
    {
      view: 'patients.njk',
      title: 'Patients',
      section: 'patients',
      dto: ListPatientsQuery,
      filters: ['search', 'dob'],
    },
    (req, query) => this.patients.list(accountOf(req), query),
    (patients) => ({ patients }),
  );

  @PageRead('', { audit: Audited('patient', 'list') })
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.listPage.show(req, res);
  }

  /** The add form, with the account's locations to choose from. */
  private readonly addPage = new FormPage(
    { view: 'patient-new.njk', title: 'Add patient', section: 'patients' },
    async (req, { form, errors }) => ({
      form,
      errors,
      locations: await this.accounts.listLocations(accountOf(req)),
    }),
  );

  /** A patient's page with its linked checks; `errors` are the link form's. */
  private readonly patientPage = new FormPage<{ code: string }>(
    { view: 'patient.njk', title: 'Patient', section: 'patients' },
    async (req, { code, errors }) => {
      const accountId = accountOf(req);
      const patient = await this.patients.getByCode(accountId, code);
      const links = await this.links.list(accountId, code);
      return { patient, links, errors };
    },
  );

  @PageRead('new', { reach: EmbeddedReach('add_patient') })
  async newPatient(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.addPage.show(req, res, {});
  }

  @PageWrite('new', {
    reach: EmbeddedReach('add_patient'),
    audit: Audited('patient', 'create', 'location'),
  })
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.addPage.post(req, res, {}, async (form) => {
      const body = await bindForm(CreatePatientDto, {
        ...form,
        force_similar: form.force_similar === 'true' ? true : undefined,
      });
      const patient = await this.patients.create(accountOf(req), body);
      redirectWith(req, res, `/app/patients/${patient.code}/`, `Patient ${patient.code} saved.`);
    });
  }

  @PageRead(':code', { reach: OF_PATIENT, audit: Audited('patient', 'read', 'param:code') })
  show(@Req() req: Request, @Res() res: Response, @Param('code') code: string): Promise<void> {
    return this.patientPage.show(req, res, { code });
  }

  /** Mirrors POST /api/auth/v1/patients/{code}/eligibility/. */
  @PageWrite(':code/link', { reach: OF_PATIENT, audit: Audited('patient', 'link', 'param:code') })
  link(@Req() req: Request, @Res() res: Response, @Param('code') code: string): Promise<void> {
    return this.patientPage.post(req, res, { code }, async (form) => {
      const body = await bindForm(LinkEligibilityDto, { request_uid: form.request_uid });
      await this.links.link(accountOf(req), code, body.request_uid);
      res.redirect(`/app/patients/${encodeURIComponent(code)}/`);
    });
  }
}
