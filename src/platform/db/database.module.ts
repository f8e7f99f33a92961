import { Global, Module } from '@nestjs/common';
import { Database } from './database';
import { MetricsModule } from '@/platform/metrics/metrics.module';
import { PoolMetrics } from './pool-metrics';

/** `Database` (transactions) for every module; the data source itself stays with repositories. */
@Global()
@Module({ imports: [MetricsModule], providers: [Database, PoolMetrics], exports: [Database] })
export class DatabaseModule {}
