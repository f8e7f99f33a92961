import type { Request, Response } from 'express';
import type { ErrorTree } from '@/platform/kernel/errors';
import type { InsurerCredentials } from '@/modules/insurers';
import { FAIL_REASONS } from '../domain/task-codes';
import type { PlanDesignView } from '../domain/plan-designs.service';
import type { TaskView } from '../domain/task-view';
import type { Verifier } from '../domain/verification-tasks.service';
import { formFields, renderPage, webUser } from '@/modules/web';
import { initialFields } from './verification-form';
import { BENEFIT_ROWS, NETWORKS, ROW_FIELDS } from './verification-form-rows';
import { IN_LIEU_FIELDS, MATERIALS_CELLS, MATERIALS_ROWS } from './verification-materials-form';
import { MAX_PERSONS, personCount, RELATIONSHIPS } from './verification-persons';

/** The signed-in user as a verifier (docs/api.md, Insurers and assisted verification): leases and history name them. */
export function webVerifier(req: Request): Verifier {
  const user = webUser(req)!;
  return { accountId: user.accountId, id: `user:${user.userId}`, name: `user:${user.email}` };
}

/** What a verification task's page shows besides the task (the Verifications controller's answers). */
export interface TaskPage {
  /** The small forms' fields (fail, needs info, info). */
  fields?: Record<string, string>;
  /** The benefit form's fields as posted (else as the task first shows them). */
  form?: Record<string, string>;
  /** The benefit form gets one more person block ("Add a person"). */
  addPerson?: boolean;
  errors?: ErrorTree | null;
  /** Which form `errors` belong to: the benefit form, fail or needs-info. */
  errorsOf?: 'complete' | 'fail' | 'needs_info' | 'info' | 'credentials' | 'design';
  credentials?: InsurerCredentials | null;
  /**
   * "Start from a saved plan" (docs/api.md, Plan designs): the insurer's saved plans matching
   * `query`, and the one the benefit form started from (its hidden `plan_design_id`).
   */
  designs?: { choices: PlanDesignView[]; query: string; chosen: PlanDesignView | null };
}

/** The task's page: the task, its small forms and the benefit form with one block per person. */
export function renderTaskPage(req: Request, res: Response, task: TaskView, page: TaskPage): void {
  const verifier = webVerifier(req);
  // A button that submits the benefit form (Claim, Show portal password) keeps what was typed.
  const form = page.form ?? (postedForm(req) ? formFields(req.body) : initialFields(task));
  const persons = Math.min(MAX_PERSONS, personCount(form) + (page.addPerson ? 1 : 0));
  renderPage(req, res, 'verification.njk', {
    title: `Verification: ${task.insurer_name}`,
    section: 'verifications',
    task,
    open: task.state !== 'completed' && task.state !== 'failed',
    mine: task.lease?.holder === verifier.name,
    fields: form,
    persons: [...Array(persons).keys()],
    maxPersons: MAX_PERSONS,
    relationships: RELATIONSHIPS,
    small: page.errorsOf !== 'complete' ? (page.fields ?? {}) : {},
    errors: page.errors ?? null,
    errorsOf: page.errorsOf ?? null,
    credentials: page.credentials ?? null,
    designs: page.designs ?? null,
    rows: BENEFIT_ROWS,
    networks: NETWORKS,
    cells: ROW_FIELDS,
    materialsRows: MATERIALS_ROWS,
    materialsCells: MATERIALS_CELLS,
    inLieu: IN_LIEU_FIELDS,
    failReasons: FAIL_REASONS,
  });
}

/** Whether this POST carries the benefit form (its hidden `benefit_form` field). */
export const postedForm = (req: Request): boolean =>
  req.method === 'POST' && formFields(req.body).benefit_form === '1';
