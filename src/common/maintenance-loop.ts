import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * A periodic safety-net job in worker processes (re-enqueue lost jobs, end stuck work). Runs
 * every `intervalMs`, never twice at once, and logs instead of throwing: the next tick tries again.
 */
export abstract class MaintenanceLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  protected abstract intervalMs(): number;
  protected abstract runOnce(): Promise<void>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs());
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.runOnce();
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'maintenance tick failed');
    } finally {
      this.running = false;
    }
  }
}
