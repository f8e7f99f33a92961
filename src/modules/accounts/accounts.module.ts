import { Module, OnModuleInit } from '@nestjs/common';
import { setPasswordHashCost } from '@/common/passwords';
import { InjectConfig } from '@/config/config.module';
import { AppConfig } from '@/config/env';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@/modules/audit';
import { Account } from './account.entity';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { Location } from './location.entity';
import { LocationsRepository } from './locations.repository';
import { NpiRegistry } from './npi-registry';
import { LocationsController } from './locations.controller';
import { RecoveryCode } from './recovery-code.entity';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { TwoFactorService } from './two-factor.service';
import { UserToken } from './user-token.entity';
import { User } from './user.entity';
import { UserTokensRepository } from './user-tokens.repository';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

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
