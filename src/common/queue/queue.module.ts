import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { QueueSweeper, QueueWorkers } from './queue-workers';

/** The queue idiom's machinery: worker registration by ROLE and the sweeper of every DbQueue. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [QueueWorkers, QueueSweeper],
  exports: [QueueWorkers],
})
export class QueueModule {}
