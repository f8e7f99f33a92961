import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from './account.entity';
import { AccountsService } from './accounts.service';
import { Location } from './location.entity';
import { LocationsController } from './locations.controller';
import { RecoveryCode } from './recovery-code.entity';
import { TwoFactorService } from './two-factor.service';
import { User } from './user.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Account, Location, User, RecoveryCode])],
  controllers: [LocationsController],
  providers: [AccountsService, TwoFactorService],
  exports: [AccountsService, TwoFactorService],
})
export class AccountsModule {}
