import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { WebSessionsRepository } from '../store/web-sessions.repository';

/** How often worker processes delete expired web sessions. */
const PRUNE_MS = 60_000;

/**
 * In worker processes: expired web sessions are deleted (they already count as absent when read;
 * this keeps the table small).
 */
@Injectable()
export class WebMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(WebMaintenance.name);

  constructor(
    private readonly sessions: WebSessionsRepository,
    @InjectConfig() config: AppConfig,
  ) {
    super(config);
  }

  protected override intervalMs(): number {
    return Math.max(PRUNE_MS, this.config.maintenanceIntervalMs);
  }

  protected async runOnce(): Promise<void> {
    await this.sessions.prune();
  }
}
