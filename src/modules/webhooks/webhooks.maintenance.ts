import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/common/maintenance-loop';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { WebhooksService } from './webhooks.service';

/** Worker roles: re-enqueues deliveries whose job was lost (Redis restart) or whose worker died. */
@Injectable()
export class WebhooksMaintenance extends MaintenanceLoop {
  protected readonly logger = new Logger(WebhooksMaintenance.name);

  constructor(
    private readonly webhooks: WebhooksService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.maintenanceIntervalMs;
  }

  protected async runOnce(): Promise<void> {
    await this.webhooks.requeueOverdue();
  }
}
