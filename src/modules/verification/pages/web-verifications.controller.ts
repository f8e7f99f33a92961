import { Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { ConflictError, DomainError, ValidationFailed } from '@/platform/kernel/errors';
import { Audited } from '@/modules/audit';
import {
  CompleteTaskDto,
  FailTaskDto,
  storedEvidence,
  TaskNoteDto,
} from '../api/dto/verification-input.dto';
import { PlanDesigns, type VerifiedAnswer } from '../domain/plan-designs.service';
import type { TaskView } from '../domain/task-view';
import { VerificationTasks } from '../domain/verification-tasks.service';
import { bindForm, flash, formFields, redirectAfter } from '@/modules/web';
import { designFields } from './verification-design-form';
import { materialsFields } from './verification-materials-form';
import { initialFields, placeErrors, verificationBody } from './verification-form';
import { postedForm, renderTaskPage, type TaskPage, webVerifier } from './verification-page';
import { insurerName } from '@/modules/insurers';

/** How many saved plans the task page offers at once (the search narrows them). */
const DESIGN_CHOICES = 20;

/** Why a reveal shows no password: none stored, not the lease holder, task closed, too many. */
const REVEAL_REFUSALS = new Set([403, 404, 409, 429]);

const taskPath = (id: string) => `/app/verifications/${encodeURIComponent(id)}`;

/**
 * Verifications (docs/api.md, Insurers and assisted verification): a task's page where staff
 * claim it, read the portal password, and answer it with the benefit form (the API's
 * CompleteTaskDto validates it) or fail it. Admins and staff; never embedded sessions. The list
 * of tasks (open, answered, reused) is WebVerificationListsController's.
 */
@PageController('app/verifications')
export class WebVerificationsController {
  constructor(
    private readonly tasks: VerificationTasks,
    private readonly designs: PlanDesigns,
  ) {}

  /**
   * The task's page. "Start from a saved plan" (docs/api.md, Plan designs) is a reload:
   * `?design_q=` searches the insurer's saved plans by group, `?design=<id>` fills the benefit
   * form from one (its rows, plan name and group; status, dates and used benefits stay for the
   * verifier to confirm), without JavaScript.
   */
  @PageRead(':id', { audit: Audited('verification_task', 'read', 'param:id') })
  async show(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Query('design') designId?: string,
    @Query('design_q') designQuery?: string,
  ): Promise<void> {
    const task = await this.taskOf(req, id);
    const query = typeof designQuery === 'string' ? designQuery.trim().slice(0, 200) : '';
    if (typeof designId !== 'string' || !designId) return this.render(req, res, task, {}, query);
    const accountId = webVerifier(req).accountId;
    const design = await this.designs.ofInsurer(accountId, task.insurer_code, designId);
    if (!design)
      return this.render(
        req,
        res,
        task,
        { errors: { $: [`Saved plan ${designId} not found.`] }, errorsOf: 'design' },
        query,
      );
    const form = {
      ...initialFields(task),
      ...designFields(design.items),
      ...materialsFields(design.materials),
      plan_name: design.plan_name,
      plan_group: design.plan_group ?? '',
      plan_group_id: design.plan_group_id ?? '',
      plan_design_id: design.id,
    };
    return this.render(req, res, task, { form }, query);
  }

  /**
   * The Claim button submits the benefit form (its `formaction`): the page comes back with what
   * was typed rather than a redirect that would lose it. A bare claim (no benefit form) redirects.
   */
  @PageWrite(':id/claim', { audit: Audited('verification_task', 'update', 'param:id') })
  async claim(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const verifier = webVerifier(req);
    if (!postedForm(req))
      return this.act(req, res, id, () => this.tasks.claim(verifier, id), 'Task claimed.');
    try {
      const task = await this.tasks.claim(verifier, id);
      flash(req, 'ok', 'Task claimed.');
      res.status(200);
      await this.render(req, res, task, {});
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      flash(req, 'error', e.message);
      res.status(409);
      await this.render(req, res, await this.taskOf(req, id), {});
    }
  }

  /**
   * Shows the stored portal login in this answer only; each reveal is an audit event. The rule is
   * the API's, for admins and staff alike: an open task, to the user holding its lease, a few
   * times an hour (VerificationTasks.credentials). The Passwords page sets logins, never shows them.
   */
  @PageWrite(':id/credentials', {
    audit: Audited('insurer_credentials', 'read', 'param:id'),
    status: 200,
  })
  async credentials(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const task = await this.taskOf(req, id);
    res.setHeader('Cache-Control', 'no-store');
    try {
      const credentials = await this.tasks.credentials(webVerifier(req), id);
      await this.render(req, res, task, { credentials });
    } catch (e) {
      if (!(e instanceof DomainError) || !REVEAL_REFUSALS.has(e.status)) throw e;
      // Nothing was shown: a refusal is not an audited read.
      res.status(e.status);
      if (e.headers)
        for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
      await this.render(req, res, task, { errors: { $: [e.message] }, errorsOf: 'credentials' });
    }
  }

  @PageWrite(':id/complete', { audit: Audited('verification_task', 'update', 'param:id') })
  async complete(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const task = await this.taskOf(req, id);
    const fields = formFields(req.body);
    // "Add a person": the same form again with one more block, nothing saved.
    if (fields.add_person) {
      res.status(200);
      return this.render(req, res, task, { form: fields, addPerson: true });
    }
    const verifier = webVerifier(req);
    // Started from a saved plan: the form's rows go into its tree (verificationBody).
    const designId = fields.plan_design_id?.trim();
    const design = designId
      ? await this.designs.ofInsurer(verifier.accountId, task.insurer_code, designId)
      : null;
    const { body, fieldOf, errors } = verificationBody(fields, design?.items);
    if (designId && !design) errors.plan_design_id = { $: [`Saved plan ${designId} not found.`] };
    let dto: CompleteTaskDto;
    let answer: VerifiedAnswer;
    try {
      dto = await bindForm(CompleteTaskDto, body);
      if (Object.keys(errors).length > 0) throw new ValidationFailed({});
      answer = await this.designs.answer(verifier.accountId, task, dto.plans);
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      const placed = { ...placeErrors(e.errors, fieldOf), ...errors };
      res.status(400);
      return this.render(req, res, task, { form: fields, errors: placed, errorsOf: 'complete' });
    }
    const evidence = storedEvidence(dto.evidence);
    const done = async () => {
      await this.tasks.complete(verifier, id, answer.plans, evidence, answer.designIds);
      // A Universal Search shows its plans once every insurer asked has answered.
      const waiting = await this.tasks.waitingFor(verifier.accountId, id);
      return waiting.length > 0
        ? `Saved. The check still waits for: ${waiting.map(insurerName).join(', ')}.`
        : 'Task completed: the check now shows the plan.';
    };
    await redirectAfter(req, res, done, '/app/verifications/', taskPath(id));
  }

  @PageWrite(':id/fail', { audit: Audited('verification_task', 'update', 'param:id') })
  async fail(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const form = formFields(req.body);
    const run = async () => {
      const dto = await bindForm(FailTaskDto, { reason: form.reason, detail: form.detail });
      return this.tasks.fail(webVerifier(req), id, dto.reason, dto.detail?.trim() || null);
    };
    await this.withForm(req, res, id, 'fail', run, 'Task failed.');
  }

  @PageWrite(':id/needs-info', { audit: Audited('verification_task', 'update', 'param:id') })
  async needsInfo(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const send = (detail: string) => this.tasks.needsInfo(webVerifier(req), id, detail);
    await this.withNote(req, res, id, 'needs_info', send, 'Question sent to the practice.');
  }

  @PageWrite(':id/info', { audit: Audited('verification_task', 'update', 'param:id') })
  async info(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const send = (detail: string) => this.tasks.info(webVerifier(req), id, detail);
    await this.withNote(req, res, id, 'info', send, 'Answer saved: the task is queued again.');
  }

  /**
   * The task's page (renderTaskPage) with "Start from a saved plan" for an open task: the
   * insurer's saved plans matching `designQuery` (by plan name, group or group id), and the one
   * the benefit form started from, if any.
   */
  private async render(
    req: Request,
    res: Response,
    task: TaskView,
    page: TaskPage,
    designQuery = '',
  ): Promise<void> {
    if (task.state === 'completed' || task.state === 'failed')
      return renderTaskPage(req, res, task, page);
    const accountId = webVerifier(req).accountId;
    const form = page.form ?? (postedForm(req) ? formFields(req.body) : undefined);
    const chosenId = form?.plan_design_id?.trim();
    const [choices, chosen] = await Promise.all([
      this.designs.list(accountId, {
        insurerCode: task.insurer_code,
        q: designQuery || undefined,
        limit: DESIGN_CHOICES,
      }),
      chosenId ? this.designs.ofInsurer(accountId, task.insurer_code, chosenId) : null,
    ]);
    renderTaskPage(req, res, task, {
      ...page,
      designs: { choices: choices.result, query: designQuery, chosen },
    });
  }

  /** The task of the page, in the signed-in user's account. */
  private taskOf(req: Request, id: string): Promise<TaskView> {
    return this.tasks.get(webVerifier(req).accountId, id);
  }

  /** A small form (fail, needs info, info): refused fields show by that form. */
  private async withForm(
    req: Request,
    res: Response,
    id: string,
    which: TaskPage['errorsOf'],
    run: () => Promise<TaskView>,
    done: string,
  ): Promise<void> {
    try {
      await this.act(req, res, id, run, done);
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      const task = await this.taskOf(req, id);
      res.status(400);
      await this.render(req, res, task, {
        errors: e.errors,
        errorsOf: which,
        fields: formFields(req.body),
      });
    }
  }

  /** A note form (needs info, info): its detail, checked by TaskNoteDto and trimmed, is sent. */
  private withNote(
    req: Request,
    res: Response,
    id: string,
    which: TaskPage['errorsOf'],
    send: (detail: string) => Promise<TaskView>,
    done: string,
  ): Promise<void> {
    const run = async () => {
      const dto = await bindForm(TaskNoteDto, { detail: formFields(req.body).detail });
      return send(dto.detail.trim());
    };
    return this.withForm(req, res, id, which, run, done);
  }

  /** Runs a change; a 409 (held by another, already done) is said on the task page. */
  private act(
    req: Request,
    res: Response,
    id: string,
    run: () => Promise<TaskView>,
    done: string,
  ): Promise<void> {
    return redirectAfter(req, res, () => run().then(() => done), taskPath(id));
  }
}
