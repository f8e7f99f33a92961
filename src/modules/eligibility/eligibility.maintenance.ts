import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { EligibilityService } from './eligibility.service';

/**
 * The safety net under the queue (worker roles only): re-enqueues searches whose job went missing
 * (a Redis restart keeps nothing) and ends any search stuck past ELIGIBILITY_WATCHDOG_SECONDS.
 */
@Injectable()
export class EligibilityMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EligibilityMaintenance.name);
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly eligibility: EligibilityService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.maintenanceIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.eligibility.expireStuck(this.config.eligibilityWatchdogSeconds);
      await this.eligibility.requeueOverdue();
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'maintenance tick failed');
    } finally {
      this.running = false;
    }
  }
}
