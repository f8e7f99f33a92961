import { Module, OnModuleInit } from '@nestjs/common';
import { setPasswordHashCost } from '@/platform/kernel/passwords';
import { InjectConfig } from '@/platform/config/config.module';
import { AppConfig } from '@/platform/config/env';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@/modules/audit';
import { Account } from './store/account.entity';
import { AccountsRepository } from './store/accounts.repository';
import { AccountsService } from './domain/accounts.service';
import { Location } from './store/location.entity';
import { LocationsRepository } from './store/locations.repository';
import { NpiRegistry } from './domain/npi-registry';
import { LocationsController } from './api/locations.controller';
import { RecoveryCode } from './store/recovery-code.entity';
import { RecoveryCodesRepository } from './store/recovery-codes.repository';
import { TwoFactorService } from './domain/two-factor.service';
import { UserToken } from './store/user-token.entity';
import { User } from './store/user.entity';
import { UserTokensRepository } from './store/user-tokens.repository';
import { UsersRepository } from './store/users.repository';
import { UsersService } from './domain/users.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Account, Location, User, RecoveryCode, UserToken]),
    AuditModule,
  ],
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
