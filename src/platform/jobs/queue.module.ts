import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ProcessRegistry } from './process-registry';
import { QueueSweeper, QueueWorkers } from './queue-workers';
import { ServiceProcessesRepository } from './service-processes.repository';
import { QueueMetrics } from './queue-metrics';
import { QueueStatsRepository } from './queue-stats.repository';

/** The queue idiom's machinery: worker registration by ROLE and the sweeper of every DbQueue. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    ServiceProcessesRepository,
    ProcessRegistry,
    QueueWorkers,
    QueueSweeper,
    QueueMetrics,
    QueueStatsRepository,
  ],
  exports: [QueueWorkers, ProcessRegistry],
})
export class QueueModule {}
