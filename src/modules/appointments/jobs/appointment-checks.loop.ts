import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { AppointmentChecks } from '../domain/appointment-checks';
import { AppointmentPolicies } from '../domain/appointment-policies.service';

/** How often worker processes look for appointments whose check has come. */
const CHECK_LOOP_MS = 10_000;

/**
 * The checks loop (docs/api.md, Appointments), in worker processes: every CHECK_LOOP_MS the
 * appointments whose `next_check_at` has come are looked at (AppointmentChecks.runDue). The
 * schedule is in PostgreSQL: a process that dies mid-pass rolls its transaction back and the
 * next pass (here or elsewhere) takes the same appointments. A write that makes a check due now
 * (a booking, a new policy) asks for a pass at once (`kick`).
 */
@Injectable()
export class AppointmentChecksLoop extends MaintenanceLoop {
  protected readonly logger = new Logger(AppointmentChecksLoop.name);

  constructor(
    private readonly checks: AppointmentChecks,
    policies: AppointmentPolicies,
    @InjectConfig() config: AppConfig,
  ) {
    super(config);
    policies.onChange(() => this.kick());
  }

  protected override intervalMs(): number {
    return Math.min(CHECK_LOOP_MS, this.config.maintenanceIntervalMs);
  }

  protected async runOnce(): Promise<void> {
    await this.checks.runDue();
  }

  /** A pass soon, not waiting for the timer (never throws: the timer's pass tries again). */
  kick(): void {
    void this.tick();
  }
}
