import { Controller, Get } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type Redis from 'ioredis';
import { ApiNoAuth } from '@/platform/http/api-docs';
import { InjectRedis } from '@/modules/redis';
import { HttpDrain } from '../domain/http-drain';

/** Terminus' health report: each check by name with its `status` (and a `message` when down). */
const checks = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down'] }, message: { type: 'string' } },
    required: ['status'],
  },
  example: { database: { status: 'up' }, redis: { status: 'up' } },
};
const report = (status: string) => ({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'], example: status },
    info: checks,
    error: { ...checks, example: status === 'ok' ? {} : { redis: { status: 'down' } } },
    details: checks,
  },
  required: ['status', 'details'],
});

/** Unauthenticated probes: live = the process answers; ready = PostgreSQL and Redis answer. */
@ApiTags('Health')
@ApiNoAuth()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectRedis() private readonly redis: Redis,
    private readonly drain: HttpDrain,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      required: ['status'],
    },
  })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: PostgreSQL and Redis answer' })
  @ApiOkResponse({ description: 'Every check is up.', schema: report('ok') })
  @ApiServiceUnavailableResponse({ description: 'A check is down.', schema: report('error') })
  @HealthCheck()
  ready() {
    return this.health.check([
      // A stopping process is not ready before its server closes (a balancer stops sending).
      async () => {
        const check = this.indicators.check('process');
        return this.drain.draining ? check.down({ message: 'shutting down' }) : check.up();
      },
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
