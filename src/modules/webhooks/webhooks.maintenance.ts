import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { WebhooksService } from './webhooks.service';

/** Worker roles: re-enqueues deliveries whose job was lost (Redis restart) or whose worker died. */
@Injectable()
export class WebhooksMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhooksMaintenance.name);
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly webhooks: WebhooksService,
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
      await this.webhooks.requeueOverdue();
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'webhook maintenance tick failed');
    } finally {
      this.running = false;
    }
  }
}
