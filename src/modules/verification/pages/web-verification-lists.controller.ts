import { Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import { Audited } from '@/modules/audit';
import { TaskStats } from '../domain/task-stats';
import { VerificationTasks } from '../domain/verification-tasks.service';
import { renderPage } from '@/modules/web';
import { webVerifier } from './verification-page';
import { claimToAnswer, reuseWords } from './task-clocks';

/** The list's views: the open queue (default), tasks answered lately, reused answers. */
const LISTS = ['open', 'answered', 'reused'] as const;

/**
 * The Verifications list (docs/api.md, Insurers and assisted verification): the account's open
 * tasks soonest due first; `?show=answered` lists the tasks answered in the last 30 days and
 * `?show=reused` the reused answers, each with how long it took from claim to answer and how
 * often it was reused. One route for the three views, so the open queue is here too; a task's
 * page is WebVerificationsController's. Admins and staff; never embedded sessions.
 */
@PageController('app/verifications')
export class WebVerificationListsController {
  constructor(
    private readonly tasks: VerificationTasks,
    private readonly stats: TaskStats,
  ) {}

  @PageRead('', { audit: Audited('verification_task', 'list') })
  async list(
    @Req() req: Request,
    @Res() res: Response,
    @Query('show') show?: string,
  ): Promise<void> {
    const accountId = webVerifier(req).accountId;
    const list = LISTS.find((l) => l === show) ?? 'open';
    const page = { title: 'Verifications', section: 'verifications', list };
    if (list === 'open')
      return renderPage(req, res, 'verifications.njk', {
        ...page,
        tasks: await this.tasks.queue(accountId),
      });
    const answered = (await this.stats.answered(accountId, list)).map((a) => ({
      ...a.task,
      answered_at: a.answeredAt,
      took: claimToAnswer(a.claimedAt, a.answeredAt),
      reuse: reuseWords(a.reusedCount, a.lastReusedAt),
    }));
    renderPage(req, res, 'verifications.njk', { ...page, answered });
  }
}
