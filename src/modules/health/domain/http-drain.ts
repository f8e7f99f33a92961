import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';

/** Longest wait for the requests in flight at a stop before their connections are cut. */
const DRAIN_TIMEOUT_MS = 20_000;

/**
 * A graceful stop of the HTTP side (SIGTERM; docs/architecture.md, Behind a connection pooler: a rolling restart answers no 5xx).
 * The first shutdown hook: readiness fails at once (`draining`) and, SHUTDOWN_DELAY_MS later
 * (time for a balancer to see it), the server stops accepting
 * connections, answers on kept-alive connections carry `Connection: close`, idle connections are
 * closed, and the requests in flight end normally; only then do the queues, Redis and the
 * database pools close (later hooks), so no request meets a closed pool.
 */
@Injectable()
export class HttpDrain implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HttpDrain.name);
  private server: Server | null = null;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  draining = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.on !== 'function') return; // ROLE=worker: no HTTP server
    this.server = server;
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight++;
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
      res.once('close', () => {
        if (--this.inFlight === 0) this.drained?.();
      });
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.draining = true;
    const server = this.server;
    if (!server?.listening) return;
    if (this.config.shutdownDelayMs > 0)
      await new Promise((r) => setTimeout(r, this.config.shutdownDelayMs));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const idle =
      this.inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => (this.drained = r));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), DRAIN_TIMEOUT_MS);
    });
    const ended = await Promise.race([idle.then(() => 'idle' as const), timeout]);
    if (ended === 'timeout')
      this.logger.warn({ inFlight: this.inFlight }, 'requests still in flight at the stop');
    // Kept-alive connections with no request left are closed; the server then reports closed.
    server.closeIdleConnections();
    await Promise.race([closed, timeout]);
    clearTimeout(timer);
    server.closeAllConnections();
  }
}
