import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type Redis from 'ioredis';
import { InjectRedis } from '@/modules/redis/redis.module';

/** Unauthenticated probes: live = the process answers; ready = PostgreSQL and Redis answer. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 2_000 }),
      async () => {
        const check = this.indicators.check('redis');
        try {
          const pong = await Promise.race([
            this.redis.ping(),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('timeout')), 2_000).unref(),
            ),
          ]);
          return pong === 'PONG' ? check.up() : check.down({ message: 'unexpected answer' });
        } catch (e) {
          return check.down({ message: (e as Error).message });
        }
      },
    ]);
  }
}
