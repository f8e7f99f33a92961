import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { entities } from '@/entities';
import { AccountsModule } from '@/modules/accounts/accounts.module';
import { AuthModule } from '@/modules/auth/auth.module';
import { UnmatchedRemittancesModule } from '@/modules/claims/reports/unmatched-remittances.module';
import { APP_CONFIG, AppConfigModule } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { buildDataSourceOptions } from '@/platform/db/data-source';
import { DatabaseModule } from '@/platform/db/database.module';
import { HooksModule } from '@/platform/kernel/hooks.module';
import {
  CreateAccountCommand,
  CreateApiKeyCommand,
  RevokeApiKeyCommand,
  UpdateLocationCommand,
} from './accounts.commands';
import { UnmatchedReportsCommand } from './reports.commands';
import { CreateUserCommand, ResetPasswordCommand } from './users.commands';

/**
 * The admin CLI's application (src/cli.ts): the configuration, the database and the modules
 * its commands call. Loading this file reads the configuration (AppConfigModule), so src/cli.ts
 * loads it only once DATABASE_URL names the database.
 */
@Module({
  imports: [
    AppConfigModule,
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config, entities),
        logging: false,
      }),
    }),
    DatabaseModule,
    HooksModule,
    AccountsModule,
    AuthModule,
    UnmatchedRemittancesModule,
  ],
  providers: [
    CreateAccountCommand,
    CreateApiKeyCommand,
    RevokeApiKeyCommand,
    CreateUserCommand,
    ResetPasswordCommand,
    UpdateLocationCommand,
    UnmatchedReportsCommand,
  ],
})
export class CliModule {}
