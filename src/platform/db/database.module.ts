import { Global, Module } from '@nestjs/common';
import { Database } from './database';
import { PoolMetrics } from './pool-metrics';

/** `Database` (transactions) for every module; the data source itself stays with repositories. */
@Global()
@Module({ providers: [Database, PoolMetrics], exports: [Database] })
export class DatabaseModule {}
