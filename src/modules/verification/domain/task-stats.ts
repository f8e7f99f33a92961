import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import {
  AssistedTaskStats,
  type AssistedTaskStatsEntry,
  type AssistedTaskStatsPort,
} from '@/modules/insurers';
import {
  type AnsweredList,
  type AnsweredTaskRow,
  TaskStatsRepository,
} from '../store/task-stats.repository';
import { taskView, type TaskView } from './task-view';
import { Metrics } from '@/platform/metrics/metrics';

/** A task with its clocks and reuse, as the Verifications page lists answered tasks. */
interface AnsweredTask {
  task: TaskView;
  claimedAt: Date | null;
  answeredAt: Date | null;
  reusedCount: number;
  lastReusedAt: Date | null;
}

/**
 * The tasks' clocks and reuse (docs/api.md, The insurer directory and Verification tasks): the
 * directory's figures of assisted insurers (the insurers module's AssistedTaskStats hook, which
 * this implements: insurers imports nothing of verification) and the answered tasks of the
 * Verifications page.
 */
@Implements(AssistedTaskStats)
@Injectable()
export class TaskStats implements AssistedTaskStatsPort, OnModuleInit {
  constructor(
    private readonly stats: TaskStatsRepository,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    // docs/architecture.md, What operators see: `verification_tasks_open`, `verification_tasks_overdue`.
    this.metrics.addSource('verification', async () => {
      const { open, overdue } = await this.stats.openFigures();
      this.metrics.setOpenTasks(
        open.map((r) => ({ insurer: r.insurer_code, state: r.state, count: r.open })),
        overdue,
      );
    });
  }

  async forInsurers(
    accountId: string,
    codes: string[],
  ): Promise<Map<string, AssistedTaskStatsEntry>> {
    if (codes.length === 0) return new Map();
    const rows = await this.stats.byInsurer(accountId, codes);
    return new Map(
      rows.map((r) => [
        r.insurer_code,
        {
          tasks_open: r.tasks_open,
          median_minutes_to_answer: r.median === null ? null : Number(r.median),
        },
      ]),
    );
  }

  /** The account's answered tasks (`answered`: last 30 days) or reused ones, newest first. */
  async answered(accountId: string, list: AnsweredList, limit = 200): Promise<AnsweredTask[]> {
    const rows = await this.stats.answered(accountId, list, limit);
    return rows.map((r: AnsweredTaskRow) => ({
      task: taskView(r),
      claimedAt: r.claimed_at,
      answeredAt: r.answered_at,
      reusedCount: r.reused_count,
      lastReusedAt: r.last_reused_at,
    }));
  }
}
