import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AllExceptionsFilter } from '@/platform/http/http-exception.filter';
import { BodyGuard } from '@/platform/http/body/body.guard';
import { loggerParams } from '@/platform/kernel/logging';
import { TracingShutdown } from '@/platform/tracing/tracing-shutdown';
import { QueueModule } from '@/platform/jobs/queue.module';
import { HooksModule } from '@/platform/kernel/hooks.module';
import { MetricsEndpointModule } from '@/platform/metrics/metrics.module';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { APP_CONFIG, AppConfigModule } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { buildDataSourceOptions } from '@/platform/db/data-source';
import { entities } from './entities';
import { SeedModule } from '@/seed/seed.module';
import { DatabaseModule } from '@/platform/db/database.module';
import { AccountsModule } from '@/modules/accounts';
import { AppointmentsModule, AppointmentsPagesModule } from '@/modules/appointments';
import { AuditGuard, AuditModule } from '@/modules/audit';
import {
  ApiKeyGuard,
  ApiThrottlerGuard,
  AuthModule,
  RateLimitModule,
  ScopeGuard,
} from '@/modules/auth';
import { ClaimsModule, ClaimsPagesModule } from '@/modules/claims';
import { EligibilityModule, EligibilityPagesModule } from '@/modules/eligibility';
import { EstimatesModule, EstimatesPagesModule } from '@/modules/estimates';
import { QuotesModule, QuotesPagesModule } from '@/modules/quotes';
import { FhirModule } from '@/modules/fhir';
import { McpModule } from '@/modules/mcp';
import { HealthModule } from '@/modules/health';
import { IframeSessionModule } from '@/modules/iframe-session';
import { MailModule } from '@/modules/mail';
import { PatientsModule, PatientsPagesModule } from '@/modules/patients';
import { RedisModule } from '@/modules/redis';
import { VerificationModule, VerificationPagesModule } from '@/modules/verification';
import { WebModule } from '@/modules/web';
import { WebhooksModule, WebhooksPagesModule } from '@/modules/webhooks';
import { InsurersPagesModule } from '@/modules/insurers';

@Module({
  imports: [
    AppConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: loggerParams }),
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config, entities),
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
    MetricsEndpointModule,
    HooksModule,
    QueueModule,
    RedisModule,
    HealthModule,
    AuthModule,
    AuditModule,
    RateLimitModule,
    AccountsModule,
    DatabaseModule,
    SeedModule,
    EligibilityModule,
    VerificationModule,
    EstimatesModule,
    QuotesModule,
    FhirModule,
    McpModule,
    PatientsModule,
    AppointmentsModule,
    ClaimsModule,
    MailModule,
    WebhooksModule,
    IframeSessionModule,
    // The web application: the shell, then each feature's pages on it.
    WebModule,
    EligibilityPagesModule,
    InsurersPagesModule,
    WebhooksPagesModule,
    VerificationPagesModule,
    EstimatesPagesModule,
    QuotesPagesModule,
    PatientsPagesModule,
    AppointmentsPagesModule,
    ClaimsPagesModule,
  ],
  providers: [
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    // Order matters: the key guard identifies the key, the throttler counts it, then the key's
    // scopes are checked against the route's (SECURITY.md).
    { provide: APP_GUARD, useExisting: ApiKeyGuard },
    { provide: APP_GUARD, useExisting: ApiThrottlerGuard },
    { provide: APP_GUARD, useExisting: ScopeGuard },
    // docs/api.md, Conventions: the body is read only now, once the route, the key, its rate
    // limit and its scope are known.
    { provide: APP_GUARD, useClass: BodyGuard },
    // The audit trail of patient data (SECURITY.md), for API keys and web users alike: last,
    // so it arms only calls every other guard let through. It never refuses.
    { provide: APP_GUARD, useExisting: AuditGuard },
    TracingShutdown,
  ],
})
export class AppModule {}
