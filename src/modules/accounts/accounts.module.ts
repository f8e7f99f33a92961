import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from './account.entity';
import { AccountsService } from './accounts.service';
import { Location } from './location.entity';
import { LocationsController } from './locations.controller';
import { User } from './user.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Account, Location, User])],
  controllers: [LocationsController],
  providers: [AccountsService],
  exports: [AccountsService],
})
export class AccountsModule {}
