import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { EligibilityScheduler } from './eligibility.scheduler';

/**
 * The watchdog (worker roles only): ends any search stuck past ELIGIBILITY_WATCHDOG_SECONDS.
 * Lost jobs are the queue sweeper's (QueueSweeper).
 */
@Injectable()
export class EligibilityMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(EligibilityMaintenance.name);

  constructor(
    private readonly scheduler: EligibilityScheduler,
    @InjectConfig() config: AppConfig,
  ) {
    super(config);
  }

  protected async runOnce(): Promise<void> {
    await this.scheduler.expireStuck(this.config.eligibilityWatchdogSeconds);
  }
}
