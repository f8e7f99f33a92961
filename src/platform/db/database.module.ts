import { Global, Module } from '@nestjs/common';
import { Database } from './database';
import { MetricsModule } from '@/platform/metrics/metrics.module';
import { PoolMetrics } from './pool-metrics';
import { WindowCounts } from './window-counts.repository';

/**
 * `Database` (transactions) and `WindowCounts` for every module; the data source itself stays
 * with repositories.
 */
@Global()
@Module({
  imports: [MetricsModule],
  providers: [Database, PoolMetrics, WindowCounts],
  exports: [Database, WindowCounts],
})
export class DatabaseModule {}
