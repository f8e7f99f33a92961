import cluster from 'node:cluster';
import type { Server } from 'node:http';
import {
  Global,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Metrics } from './metrics';
import { closeServer, listenForScrapes } from './metrics-server';

/**
 * Where this process's metrics go (docs/architecture.md, What operators see): a process of the
 * cluster answers its supervisor, which serves them all on METRICS_PORT (src/cluster.ts); a
 * process on its own (WEB_CONCURRENCY=1, or ROLE=worker) serves its own there.
 */
@Injectable()
class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsEndpoint.name);
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const where = this.config.metrics;
    const prom = this.metrics.prom;
    if (!where || !prom) return;
    if (cluster.isWorker) {
      // prom-client's answer to the supervisor's requests: this application's registry.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { AggregatorRegistry } = require('prom-client') as typeof import('prom-client');
      AggregatorRegistry.setRegistries([prom.registry]);
      new AggregatorRegistry();
      return;
    }
    this.server = await listenForScrapes(
      where,
      () => prom.text(),
      prom.registry.contentType,
      (e) => this.logger.error({ err: e.message }, 'metrics not collected'),
    );
    this.logger.log(`Metrics on http://${where.host}:${where.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.server) await closeServer(this.server);
    this.server = null;
  }
}

/**
 * The metrics of docs/architecture.md, What operators see, for every module (global): the hooks
 * only. The database module imports it, so every application on the database (the service, the
 * CLI, a module booted alone in a test) can measure; the endpoint is the service's alone.
 */
@Global()
@Module({
  providers: [
    {
      provide: Metrics,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new Metrics(config.metrics !== null),
    },
  ],
  exports: [Metrics],
})
export class MetricsModule {}

/** The service's metrics endpoint (AppModule): served on METRICS_PORT, or to the supervisor. */
@Module({ imports: [MetricsModule], providers: [MetricsEndpoint] })
export class MetricsEndpointModule {}
