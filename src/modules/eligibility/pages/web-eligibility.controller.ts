import { Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { benefitRows, planNotes } from '@/lib/benefits';
import { CreateEligibilityDto } from '../api/dto/create-eligibility.dto';
import { EligibilityQueryService } from '../read/domain/eligibility-query.service';
import { EligibilityService } from '../domain/eligibility.service';
import { EligibilitySnapshots } from '../read/domain/snapshot/eligibility-snapshots.service';
import { SnapshotQuery } from '../api/dto/snapshot.query';
import { InsurerSettingsService } from '@/modules/insurers';
import { TaskNoteDto, type TaskView, VerificationTasks, webVerifier } from '@/modules/verification';
import { exchangeViews } from './exchange-view';
import { InjectHook } from '@/platform/kernel/hooks';
import { PatientRecords, type PatientRecordsPort } from './patient-records.port';
import {
  accountOf,
  bindForm,
  checkedValues,
  EmbeddedReach,
  FormPage,
  formFields,
  redirectWith,
  sendPdf,
} from '@/modules/web';
import { AccountsService } from '@/modules/accounts';
import { Audited } from '@/modules/audit';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { INSURER_STATE_WORDS, stillCheckedBy } from '../domain/insurer-entries';
import { type CheckBody, checkTitle, insurerRows, openTaskIds } from './check-view';

/** The check form's subscriber fields (`subscriber_first_name` …): the API's `subscriber`. */
const SUBSCRIBER_FIELDS = ['first_name', 'last_name', 'dob', 'member_id'] as const;
/** The insurer choices that make the check a Universal Search (docs/api.md, Eligibility). */
const ALL_INSURERS = 'all';
const TICKED_INSURERS = 'list';

/** A check's pages: an embedded session opened at `add_patient` reaches the checks it ran. */
const OF_CHECK = EmbeddedReach('add_patient', { kind: 'eligibility', from: 'param:uid' });
const READ_CHECK = Audited('eligibility_request', 'read', 'param:uid');

/** Eligibility checks: the check form (POST /api/auth/v1/eligibility/) and a check's result. */
@PageController('app/eligibility')
export class WebEligibilityController {
  constructor(
    private readonly eligibility: EligibilityService,
    private readonly eligibilityQuery: EligibilityQueryService,
    @InjectHook(PatientRecords) private readonly patients: PatientRecordsPort,
    private readonly insurers: InsurerSettingsService,
    private readonly tasks: VerificationTasks,
    private readonly snapshots: EligibilitySnapshots,
    private readonly accounts: AccountsService,
  ) {}

  /** The check form; `patientCode` is the patient record it fills from and links to. */
  private readonly checkForm = new FormPage<{ patientCode: string | null }>(
    { view: 'eligibility-new.njk', title: 'Check eligibility', section: 'eligibility' },
    async (req, state) => ({
      ...state,
      insurers: await this.insurers.list(accountOf(req)),
      locations: await this.accounts.listLocations(accountOf(req)),
      ticked: checkedValues(req.body, 'insurer_code_list'),
      hasSubscriber: SUBSCRIBER_FIELDS.some((f) => state.form[`subscriber_${f}`]),
    }),
  );

  /** A check's result; `errors` are the answer form's (to the verifier's question). */
  private readonly checkPage = new FormPage<{ uid: string }>(
    { view: 'eligibility.njk', title: 'Eligibility check', section: 'eligibility' },
    async (req, { uid, errors, form }) => {
      const result = await this.check(req, uid);
      // docs/api.md, Insurers and assisted verification: a person checks these insurers; a question of theirs is answered here.
      const tasks: TaskView[] = await Promise.all(
        openTaskIds(result).map((id) => this.tasks.get(accountOf(req), id)),
      );
      const rows: Record<string, unknown> = {};
      const notes: Record<string, string[]> = {};
      for (const r of result.results ?? [])
        for (const p of r.persons) {
          rows[`${r.id}:${p.id}`] = benefitRows(p.plan);
          notes[`${r.id}:${p.id}`] = planNotes(p.plan);
        }
      const exchanges = exchangeViews(await this.eligibilityQuery.exchanges(accountOf(req), uid));
      const checking = stillCheckedBy(result.insurers ?? []);
      const title = checkTitle(await this.eligibilityQuery.findRequest(accountOf(req), uid));
      // Without JavaScript, the page refreshes itself while the insurer is being asked; a
      // person's check takes longer, and a question to answer must not be refreshed away.
      let refreshSeconds: number | null = null;
      if (result.status === 'processing') refreshSeconds = tasks.length ? 30 : 2;
      else if (checking) refreshSeconds = 30;
      if (tasks.some((t) => t.state === 'needs_info')) refreshSeconds = null;
      return {
        title,
        uid,
        result,
        insurerRows: insurerRows(result),
        benefitRows: rows,
        planNotes: notes,
        exchanges,
        // Why a check ended in error, in the insurers' words (from the exchange log).
        reasons: [
          ...new Set(exchanges.filter((e) => e.outcome !== 'found' && e.error).map((e) => e.error)),
        ],
        tasks,
        // The first task with a question keeps the plain ids of its answer form.
        firstAsking: tasks.find((t) => t.state === 'needs_info')?.id ?? null,
        // docs/api.md, Universal Search insurer by insurer: a `complete` answer whose people
        // have not answered yet is not "no plan found".
        stillChecking: checking,
        insurerStateWords: INSURER_STATE_WORDS,
        infoErrors: errors,
        // The task whose question the refused answer was to (its form shows the errors).
        infoTask: form.task_id ?? null,
        refreshSeconds,
      };
    },
  );

  /** `?patient=CODE` fills the form from a patient record and links the check to it. */
  @PageRead('new', {
    reach: EmbeddedReach('add_patient', { kind: 'patient', from: 'query:patient' }),
    audit: Audited('patient', 'read', 'query:patient'),
  })
  async newCheck(
    @Req() req: Request,
    @Res() res: Response,
    @Query('patient') patientCode?: string,
  ): Promise<void> {
    let form: Record<string, string> = { insurer_code: 'insurer:demo:vision' };
    if (typeof patientCode === 'string' && patientCode) {
      const p = await this.patients.getByCode(accountOf(req), patientCode);
      form = {
        ...form,
        first_name: p.first_name,
        last_name: p.last_name,
        dob: p.dob,
        ssn_last_four: p.ssn_last_four ?? '',
        zipcode: p.address?.zipcode ?? '',
      };
    }
    const code = typeof patientCode === 'string' ? patientCode : null;
    await this.checkForm.show(req, res, { patientCode: code }, { form, errors: null });
  }

  @PageWrite('new', {
    reach: EmbeddedReach('add_patient', { kind: 'patient', from: 'body:patient_code' }),
    audit: Audited('eligibility_request', 'create', 'location'),
  })
  async runCheck(@Req() req: Request, @Res() res: Response): Promise<void> {
    const accountId = accountOf(req);
    const patientCode = formFields(req.body).patient_code ?? null;
    await this.checkForm.post(req, res, { patientCode }, async (form) => {
      const body = await bindForm(CreateEligibilityDto, {
        ...(await this.insurersAsked(accountId, form.insurer_code, req.body)),
        location_code: form.location_code,
        // Blank: the API's defaults (docs/api.md, Universal Search insurer by insurer).
        wait_for: form.wait_for || undefined,
        assisted: form.assisted || undefined,
        subscriber: SUBSCRIBER_FIELDS.some((f) => form[`subscriber_${f}`]?.trim())
          ? Object.fromEntries(SUBSCRIBER_FIELDS.map((f) => [f, form[`subscriber_${f}`]]))
          : undefined,
        patient: {
          first_name: form.first_name,
          last_name: form.last_name,
          dob: form.dob,
          zipcode: form.zipcode,
          member_id: form.member_id,
          ssn_last_four: form.ssn_last_four,
        },
      });
      const uid = await this.eligibility.create(accountId, body);
      if (form.patient_code) await this.patients.link(accountId, form.patient_code, uid);
      res.redirect(`/app/eligibility/${encodeURIComponent(uid)}`);
    });
  }

  @PageRead(':uid', { reach: OF_CHECK, audit: READ_CHECK })
  showCheck(@Req() req: Request, @Res() res: Response, @Param('uid') uid: string): Promise<void> {
    return this.checkPage.show(req, res, { uid });
  }

  /**
   * The check's Print button: the eligibility snapshot of GET /api/auth/v2/eligibility/{uid}/pdf/
   * (docs/api.md, Eligibility), of one person's plan or of the whole check. A link with ids that
   * are not numbers, or not of this check, is a missing page.
   */
  @PageRead(':uid/pdf', { reach: OF_CHECK, audit: READ_CHECK })
  async printCheck(
    @Req() req: Request,
    @Res() res: Response,
    @Param('uid') uid: string,
    @Query('result_id') resultId?: string,
    @Query('person_id') personId?: string,
  ): Promise<void> {
    const snapshot = async () => {
      const target = await bindForm(SnapshotQuery, { result_id: resultId, person_id: personId });
      return this.snapshots.pdf(accountOf(req), uid, target);
    };
    const file = await snapshot().catch((e: unknown) => {
      throw e instanceof ValidationFailed ? new NotFoundError('Page not found.') : e;
    });
    sendPdf(res, file);
  }

  /** The practice answers the verifier's question (docs/api.md, Insurers and assisted verification): the task is queued again. */
  @PageWrite(':uid/verification-info', {
    reach: OF_CHECK,
    audit: Audited('eligibility_request', 'update', 'param:uid'),
  })
  async answerVerifier(
    @Req() req: Request,
    @Res() res: Response,
    @Param('uid') uid: string,
  ): Promise<void> {
    const body = await this.check(req, uid);
    const back = `/app/eligibility/${encodeURIComponent(uid)}`;
    const open = openTaskIds(body);
    if (open.length === 0) return res.redirect(back);
    await this.checkPage.post(req, res, { uid }, async (form) => {
      const dto = await bindForm(TaskNoteDto, { detail: form.detail });
      // The question answered is the task the form names, when it is one of this check's.
      const taskId = open.includes(form.task_id) ? form.task_id : open[0];
      await this.tasks.info(webVerifier(req), taskId, dto.detail.trim());
      redirectWith(req, res, back, 'Answer sent: the check is queued again.');
    });
  }

  /**
   * The insurers the form asks, as the API's body names them: one (`insurer_code`), or a Universal
   * Search (`insurer_code_list`): every enabled insurer of the account ("All insurers"), the ones
   * ticked ("The insurers ticked"), or the one chosen with the ones ticked besides it.
   */
  private async insurersAsked(
    accountId: string,
    chosen: string | undefined,
    body: unknown,
  ): Promise<{ insurer_code?: string; insurer_code_list?: string[] }> {
    const ticked = checkedValues(body, 'insurer_code_list');
    if (chosen === ALL_INSURERS)
      return {
        insurer_code_list: (await this.insurers.list(accountId))
          .filter((i) => i.enabled)
          .map((i) => i.code),
      };
    if (chosen === TICKED_INSURERS) return { insurer_code_list: ticked };
    if (ticked.length === 0) return { insurer_code: chosen };
    return { insurer_code_list: [...new Set([...(chosen ? [chosen] : []), ...ticked])] };
  }

  /** The check as the API's v2 answer has it. */
  private async check(req: Request, uid: string): Promise<CheckBody> {
    return JSON.parse(await this.eligibilityQuery.getBody(accountOf(req), uid, 'v2')) as CheckBody;
  }
}
