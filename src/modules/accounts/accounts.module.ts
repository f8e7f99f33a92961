import { Module, OnModuleInit } from '@nestjs/common';
import { setPasswordHashCost } from '@/platform/kernel/passwords';
import { InjectConfig } from '@/platform/config/config.module';
import { AppConfig } from '@/platform/config/env';
import { AuditModule } from '@/modules/audit';
import { AccountsRepository } from './store/accounts.repository';
import { AccountsService } from './domain/accounts.service';
import { LocationsRepository } from './store/locations.repository';
import { NpiRegistry } from './domain/npi-registry';
import { LocationsController } from './api/locations.controller';
import { RecoveryCodesRepository } from './store/recovery-codes.repository';
import { TwoFactorService } from './domain/two-factor.service';
import { UserTokensRepository } from './store/user-tokens.repository';
import { UsersRepository } from './store/users.repository';
import { UsersService } from './domain/users.service';

@Module({
  imports: [AuditModule],
  controllers: [LocationsController],
  providers: [
    AccountsService,
    TwoFactorService,
    UsersService,
    NpiRegistry,
    AccountsRepository,
    LocationsRepository,
    UsersRepository,
    UserTokensRepository,
    RecoveryCodesRepository,
  ],
  exports: [AccountsService, TwoFactorService, UsersService, NpiRegistry],
})
export class AccountsModule implements OnModuleInit {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** New password hashes (accounts, users, the CLI) are made at the configured scrypt cost. */
  onModuleInit(): void {
    setPasswordHashCost(this.config.passwordHashCost);
  }
}
