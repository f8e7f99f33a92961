import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AllExceptionsFilter } from '@/common/http-exception.filter';
import { loggerParams } from '@/common/logging';
import { createValidationPipe } from '@/common/validation/validation-errors';
import { APP_CONFIG, AppConfigModule } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { buildDataSourceOptions } from '@/database/data-source';
import { AccountsModule } from '@/modules/accounts/accounts.module';
import { ApiKeyGuard } from '@/modules/auth/api-key.guard';
import { ApiThrottlerGuard } from '@/modules/auth/api-throttler.guard';
import { AuthModule } from '@/modules/auth/auth.module';
import { SeedModule } from '@/database/database.module';
import { EligibilityModule } from '@/modules/eligibility/eligibility.module';
import { ClaimsModule } from '@/modules/claims/claims.module';
import { MailModule } from '@/modules/mail/mail.module';
import { PatientsModule } from '@/modules/patients/patients.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { IframeSessionModule } from '@/modules/iframe-session/iframe-session.module';
import { WebModule } from '@/modules/web/web.module';
import { HealthModule } from '@/modules/health/health.module';
import { RedisModule, THROTTLE_REDIS } from '@/modules/redis/redis.module';
import type Redis from 'ioredis';

@Module({
  imports: [
    AppConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: loggerParams }),
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config),
        autoLoadEntities: false,
      }),
    }),
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        url: config.redisUrl,
        prefix: `${config.redisPrefix}:bull`,
      }),
    }),
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, THROTTLE_REDIS],
      useFactory: (config: AppConfig, redis: Redis) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimitPerMinute }],
        storage: new ThrottlerStorageRedisService(redis),
      }),
    }),
    EventEmitterModule.forRoot(),
    RedisModule,
    HealthModule,
    AuthModule,
    AccountsModule,
    SeedModule,
    EligibilityModule,
    PatientsModule,
    ClaimsModule,
    MailModule,
    WebhooksModule,
    IframeSessionModule,
    WebModule,
  ],
  providers: [
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    // Order matters: the key guard identifies the key, then the throttler counts it.
    { provide: APP_GUARD, useExisting: ApiKeyGuard },
    { provide: APP_GUARD, useClass: ApiThrottlerGuard },
  ],
})
export class AppModule {}
