import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '@/platform/metrics/metrics';
import { pgPool } from './pg-pool';

/** `db_pool_connections{state}` (docs/architecture.md, What operators see): this process's pool. */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.readPool(() => {
      if (!this.db.isInitialized) return null;
      const pool = pgPool(this.db);
      return {
        active: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      };
    });
  }
}
