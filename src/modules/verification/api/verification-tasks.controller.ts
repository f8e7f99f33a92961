import { Body, Param, Query, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { type ApiRouteDoc, ApiRead, ApiWrite } from '@/platform/http/api-routes';
import { ValidationFailed } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import {
  CompleteTaskDto,
  FailTaskDto,
  storedEvidence,
  TaskListQuery,
  TaskNoteDto,
} from './dto/verification-input.dto';
import {
  InsurerCredentialsResponse,
  VerificationTaskListResponse,
  VerificationTaskResponse,
} from './dto/verification.response';
import { CREDENTIAL_READS_PER_HOUR } from '../domain/credentials-throttle';
import type { TaskView } from '../domain/task-view';
import { PlanDesigns } from '../domain/plan-designs.service';
import { type Verifier, VerificationTasks } from '../domain/verification-tasks.service';

const NOT_FOUND: [404, unknown] = [
  404,
  { detail: 'Verification task 0b8f3c2d-5b0c-4c53-9a55-6f9e1d2a0f1b not found.' },
];
const HELD: [409, unknown] = [
  409,
  { detail: 'Another verifier holds this task; try again when its lease ends.' },
];

/**
 * `due_before` as an exact instant: the pattern lets `2026-13-45` through, which PostgreSQL
 * would refuse (a 500); a date without a time is its midnight UTC.
 */
function instant(text: string): string {
  const at = new Date(text);
  if (Number.isNaN(at.getTime()))
    throw ValidationFailed.field('due_before', 'Enter a valid date/time (ISO 8601).');
  return at.toISOString();
}

/** The calling key as a verifier: it holds leases and is named in the task's history. */
function verifierOf(req: AppRequest): Verifier {
  const auth = req.auth!;
  return {
    accountId: auth.accountId,
    id: `api_key:${auth.apiKeyId}`,
    name: `api_key:${auth.apiKeyPrefix}`,
  };
}

/** A change of one task, `POST :id/<action>` (a 200 with the task): the verifier's write, audited. */
const TaskChange = (action: string, doc: Pick<ApiRouteDoc, 'summary' | 'description' | 'errors'>) =>
  ApiWrite(`:id/${action}`, 200, {
    scope: 'verification:write',
    audit: Audited('verification_task', 'update', 'param:id'),
    answer: VerificationTaskResponse,
    ...doc,
  });

@ApiController('Verification tasks', 'api/auth/v1/verification-tasks')
export class VerificationTasksController {
  constructor(
    private readonly tasks: VerificationTasks,
    private readonly designs: PlanDesigns,
  ) {}

  @ApiRead('', {
    scope: 'verification:read',
    audit: Audited('verification_task', 'list'),
    answer: VerificationTaskListResponse,
    errors: [400],
    summary: 'List verification tasks',
    description:
      'Tasks of searches answered by a person (docs/api.md, Insurers and assisted verification), newest first; filter by `state`, ' +
      '`insurer_code` and `due_before`. The web Verifications page shows the open ones soonest due first.',
  })
  list(@Req() req: AppRequest, @Query() query: TaskListQuery) {
    return this.tasks.list(req.auth!.accountId, {
      state: query.state,
      insurerCode: query.insurer_code,
      dueBefore: query.due_before ? instant(query.due_before) : undefined,
      limit: query.limit ?? 50,
      cursor: query.cursor,
    });
  }

  @ApiRead(':id', {
    scope: 'verification:read',
    audit: Audited('verification_task', 'read', 'param:id'),
    answer: VerificationTaskResponse,
    errors: [NOT_FOUND],
    summary: 'Get a verification task',
    description:
      'The patient as asked, the insurer and its portal, the location, `due_by`, the lease and the history.',
  })
  get(@Req() req: AppRequest, @Param('id') id: string): Promise<TaskView> {
    return this.tasks.get(req.auth!.accountId, id);
  }

  @TaskChange('claim', {
    summary: 'Claim a verification task',
    description:
      'Leases the task to the calling key for VERIFICATION_LEASE_MINUTES (claiming again extends it); ' +
      'a lease that runs out puts the task back in the queue. 409 while another verifier holds it.',
    errors: [NOT_FOUND, HELD],
  })
  claim(@Req() req: AppRequest, @Param('id') id: string): Promise<TaskView> {
    return this.tasks.claim(verifierOf(req), id);
  }

  @TaskChange('complete', {
    summary: 'Complete a verification task with the plans found',
    description:
      'The search completes with exactly these plans (V2 plan results with persons; ids are assigned by the ' +
      'service) and its webhooks fire as for any search. A malformed plan is a 400 keyed into `plans` and ' +
      'changes nothing; a task already completed or failed is 409. A person needs only `plan`: its ' +
      'first and last name, date of birth and member id default to the one asked for, and `sex`, ' +
      '`address`, `email` and `phone` may be left out (null in the answer). When the search named ' +
      'a subscriber (the patient is a dependent), a person of type `self` or `subscriber` is that ' +
      'subscriber and any other type is the patient; otherwise every person is the patient. A ' +
      'person without `type` is the patient, `self` (or `dependent` when a subscriber was named). ' +
      "A plan may give `plan_design_id` (docs/api.md, Plan designs): its persons' `plan.items` may " +
      "then be left out, and items given replace the design's of the same `benefit_code`; an " +
      'unknown design, or one of another insurer, is a field error on `plan_design_id`. Every plan ' +
      'with a group id or group is saved as the design of its group.',
    errors: [
      [
        400,
        {
          errors: {
            plans: {
              '0': {
                persons: {
                  '0': {
                    plan: {
                      items: {
                        '0': {
                          refresh_date: {
                            $: [
                              'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
                            ],
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
      NOT_FOUND,
      HELD,
    ],
  })
  async complete(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Body() body: CompleteTaskDto,
  ): Promise<TaskView> {
    const verifier = verifierOf(req);
    const task = await this.tasks.get(verifier.accountId, id);
    const answer = await this.designs.answer(verifier.accountId, task, body.plans);
    const evidence = storedEvidence(body.evidence);
    return this.tasks.complete(verifier, id, answer.plans, evidence, answer.designIds);
  }

  @TaskChange('fail', {
    summary: 'Fail a verification task',
    description:
      '`member_not_found` completes the search with `results: []`; the other reasons end it `error` / ' +
      '`insurer_problem` with the detail in `error_detail`. `credentials_invalid` marks the stored ' +
      'credentials "needs attention".',
    errors: [400, NOT_FOUND, HELD],
  })
  fail(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Body() body: FailTaskDto,
  ): Promise<TaskView> {
    return this.tasks.fail(verifierOf(req), id, body.reason, body.detail?.trim() || null);
  }

  @TaskChange('needs-info', {
    summary: 'Ask the practice for information',
    description:
      'The task (and the request’s `verification`) shows `needs_info` until the practice answers.',
    errors: [400, NOT_FOUND, HELD],
  })
  needsInfo(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Body() body: TaskNoteDto,
  ): Promise<TaskView> {
    return this.tasks.needsInfo(verifierOf(req), id, body.detail.trim());
  }

  @TaskChange('info', {
    summary: 'Answer a task that needs information',
    description:
      'The practice’s answer; the task is queued again. 409 unless the task is `needs_info`.',
    errors: [
      400,
      NOT_FOUND,
      [409, { detail: 'This task is queued, not waiting for information.' }],
    ],
  })
  info(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Body() body: TaskNoteDto,
  ): Promise<TaskView> {
    return this.tasks.info(verifierOf(req), id, body.detail.trim());
  }

  // Its 403 names the scope's own words, "read the insurer passwords of verification tasks".
  @ApiRead(':id/credentials', {
    scope: 'verification:credentials',
    audit: Audited('insurer_credentials', 'read', 'param:id'),
    summary: "Read the account's portal credentials for the task's insurer",
    description:
      'For a portal bot to sign in. Needs the scope `verification:credentials`, which no other scope implies; ' +
      'every read is an audit event. Only for an open task whose lease the calling key holds (claim it ' +
      'first): 403 otherwise, 409 for a completed or failed task. At most ' +
      `${CREDENTIAL_READS_PER_HOUR} reads an hour per key, then 429 with \`Retry-After\`. ` +
      '404 when none are stored.',
    answer: InsurerCredentialsResponse,
    errors: [
      NOT_FOUND,
      [
        403,
        {
          detail:
            'Claim this task first: its portal password is shown only to the verifier holding its lease.',
        },
      ],
      [409, { detail: 'This task is already completed.' }],
    ],
  })
  credentials(
    @Req() req: AppRequest,
    @Param('id') id: string,
  ): Promise<InsurerCredentialsResponse> {
    return this.tasks.credentials(verifierOf(req), id);
  }
}
