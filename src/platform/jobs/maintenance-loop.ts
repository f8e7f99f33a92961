import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig, runsWorkers } from '@/platform/config/env';

/**
 * A periodic safety-net job in worker processes (re-enqueue lost jobs, end stuck work): started
 * only when the injected config's ROLE runs workers. Runs every MAINTENANCE_INTERVAL_MS, never
 * twice at once, and logs instead of throwing: the next tick tries again.
 */
export abstract class MaintenanceLoop implements OnApplicationBootstrap, OnModuleDestroy {
  protected abstract readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  protected constructor(protected readonly config: AppConfig) {}

  protected abstract runOnce(): Promise<void>;

  protected intervalMs(): number {
    return this.config.maintenanceIntervalMs;
  }

  onApplicationBootstrap(): void {
    if (!runsWorkers(this.config)) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs());
    this.timer.unref();
  }

  /** Stops before the queues close (module destroy comes first), letting a running tick end. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass now (also what the timer calls); resolves when it is done. */
  async tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.runOnce()
      .catch((e: unknown) =>
        this.logger.warn({ err: (e as Error).message }, 'maintenance tick failed'),
      )
      .finally(() => (this.running = null));
    return this.running;
  }
}
