import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { EligibilityService } from './eligibility.service';

/**
 * The safety net under the queue (worker roles only): re-enqueues searches whose job went missing
 * (a Redis restart keeps nothing) and ends any search stuck past ELIGIBILITY_WATCHDOG_SECONDS.
 */
@Injectable()
export class EligibilityMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(EligibilityMaintenance.name);

  constructor(
    private readonly eligibility: EligibilityService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.maintenanceIntervalMs;
  }

  protected async runOnce(): Promise<void> {
    await this.eligibility.expireStuck(this.config.eligibilityWatchdogSeconds);
    await this.eligibility.requeueOverdue();
  }
}
