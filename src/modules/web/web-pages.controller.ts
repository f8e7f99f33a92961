import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ValidationFailed } from '@/common/errors';
import { AccountsService } from '@/modules/accounts/accounts.service';
import type { Plan } from '@/modules/benefits/benefit.types';
import { CreateEligibilityDto } from '@/modules/eligibility/dto/create-eligibility.dto';
import { EligibilityService } from '@/modules/eligibility/eligibility.service';
import { InsurerSettingsService } from '@/modules/insurers/insurer-settings.service';
import { CreatePatientDto } from '@/modules/patients/dto/create-patient.dto';
import { ListPatientsQuery } from '@/modules/patients/dto/list-patients.query';
import { PatientLinksService } from '@/modules/patients/patient-links.service';
import { PatientsService } from '@/modules/patients/patients.service';
import { benefitRows } from './benefit-table';
import { formFields, validateForm } from './form-validation';
import { flash, renderPage, webUser } from './web-context';

/** Dashboard, eligibility checks and patients. */
@ApiExcludeController()
@Controller('app')
export class WebPagesController {
  constructor(
    private readonly eligibility: EligibilityService,
    private readonly patients: PatientsService,
    private readonly links: PatientLinksService,
    private readonly accounts: AccountsService,
    private readonly insurers: InsurerSettingsService,
  ) {}

  @Get()
  async dashboard(@Req() req: Request, @Res() res: Response): Promise<void> {
    const requests = await this.eligibility.listRecent(webUser(req)!.accountId, 50);
    renderPage(req, res, 'dashboard.njk', { title: 'Dashboard', section: 'dashboard', requests });
  }

  // Eligibility -----------------------------------------------------------------------------

  @Get('eligibility/new')
  async newCheck(
    @Req() req: Request,
    @Res() res: Response,
    @Query('patient') patientCode?: string,
  ): Promise<void> {
    const accountId = webUser(req)!.accountId;
    let form: Record<string, string> = { insurer_code: 'insurer:demo:vision' };
    if (typeof patientCode === 'string' && patientCode) {
      const p = await this.patients.getByCode(accountId, patientCode);
      form = {
        ...form,
        first_name: p.first_name,
        last_name: p.last_name,
        dob: p.dob,
        ssn_last_four: p.ssn_last_four ?? '',
        zipcode: p.address?.zipcode ?? '',
      };
    }
    await this.renderCheckForm(
      req,
      res,
      form,
      null,
      typeof patientCode === 'string' ? patientCode : null,
    );
  }

  @Post('eligibility/new')
  async runCheck(@Req() req: Request, @Res() res: Response): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const form = formFields(req.body);
    const { value, errors } = await validateForm(CreateEligibilityDto, {
      insurer_code: form.insurer_code,
      patient: {
        first_name: form.first_name,
        last_name: form.last_name,
        dob: form.dob,
        zipcode: form.zipcode,
        ...(form.member_id ? { member_id: form.member_id } : {}),
        ...(form.ssn_last_four ? { ssn_last_four: form.ssn_last_four } : {}),
      },
    });
    if (errors)
      return this.renderCheckForm(req, res.status(400), form, errors, form.patient_code ?? null);
    try {
      const uid = await this.eligibility.create(accountId, value);
      if (form.patient_code) await this.links.link(accountId, form.patient_code, uid);
      res.redirect(`/app/eligibility/${encodeURIComponent(uid)}`);
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.renderCheckForm(
          req,
          res.status(400),
          form,
          e.errors,
          form.patient_code ?? null,
        );
      throw e;
    }
  }

  private async renderCheckForm(
    req: Request,
    res: Response,
    form: Record<string, string>,
    errors: unknown,
    patientCode: string | null,
  ) {
    const insurers = await this.insurers.list(webUser(req)!.accountId);
    renderPage(req, res, 'eligibility-new.njk', {
      title: 'Check eligibility',
      section: 'eligibility',
      form,
      errors,
      insurers,
      patientCode,
    });
  }

  @Get('eligibility/:uid')
  async showCheck(
    @Req() req: Request,
    @Res() res: Response,
    @Param('uid') uid: string,
  ): Promise<void> {
    const body = await this.eligibility.getBody(webUser(req)!.accountId, uid, 'v2');
    const result = JSON.parse(body) as {
      status: string;
      results: { id: number; persons: { id: number; plan: Plan }[] }[] | null;
    };
    const rows: Record<string, unknown> = {};
    for (const r of result.results ?? [])
      for (const p of r.persons) rows[`${r.id}:${p.id}`] = benefitRows(p.plan);
    renderPage(req, res, 'eligibility.njk', {
      title: 'Eligibility check',
      section: 'eligibility',
      uid,
      result,
      benefitRows: rows,
      // Without JavaScript, the page refreshes itself while the insurer is being asked.
      refreshSeconds: result.status === 'processing' ? 2 : null,
    });
  }

  // Patients --------------------------------------------------------------------------------

  @Get('patients')
  async patientList(
    @Req() req: Request,
    @Res() res: Response,
    @Query() raw: Record<string, unknown>,
  ): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const query = { search: str(raw.search), dob: str(raw.dob), cursor: str(raw.cursor) };
    const { value, errors } = await validateForm(ListPatientsQuery, { ...query, limit: '25' });
    let page: { result: unknown[]; next_cursor: string | null } = { result: [], next_cursor: null };
    if (!errors) {
      try {
        page = await this.patients.list(accountId, value);
      } catch (e) {
        if (!(e instanceof ValidationFailed)) throw e;
      }
    }
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

  @Get('patients/new')
  async newPatient(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.renderPatientForm(req, res, {}, null);
  }

  @Post('patients/new')
  async createPatient(@Req() req: Request, @Res() res: Response): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const form = formFields(req.body);
    const { value, errors } = await validateForm(CreatePatientDto, {
      ...form,
      force_similar: form.force_similar === 'true' ? true : undefined,
    });
    if (errors) return this.renderPatientForm(req, res.status(400), form, errors);
    try {
      const patient = await this.patients.create(accountId, value);
      flash(req, 'ok', `Patient ${patient.code} saved.`);
      res.redirect(`/app/patients/${patient.code}/`);
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.renderPatientForm(req, res.status(400), form, e.errors);
      throw e;
    }
  }

  private async renderPatientForm(
    req: Request,
    res: Response,
    form: Record<string, string>,
    errors: unknown,
  ) {
    const locations = await this.accounts.listLocations(webUser(req)!.accountId);
    renderPage(req, res, 'patient-new.njk', {
      title: 'Add patient',
      section: 'patients',
      form,
      errors,
      locations,
    });
  }

  @Get('patients/:code')
  async patientPage(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
    linkError?: string,
  ): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const patient = await this.patients.getByCode(accountId, code);
    const links = await this.links.list(accountId, code);
    renderPage(req, res, 'patient.njk', {
      title: 'Patient',
      section: 'patients',
      patient,
      links,
      linkError,
    });
  }

  @Post('patients/:code/link')
  async linkRequest(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    const accountId = webUser(req)!.accountId;
    const uid = formFields(req.body).request_uid?.trim() ?? '';
    try {
      await this.links.link(accountId, code, uid);
      res.redirect(`/app/patients/${encodeURIComponent(code)}/`);
    } catch (e) {
      if (e instanceof ValidationFailed)
        return this.patientPage(
          req,
          res.status(400),
          code,
          'No eligibility request with this UID.',
        );
      throw e;
    }
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
