import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts/accounts.module';
import { AuthModule } from '@/modules/auth/auth.module';
import { DemoSeeder } from './seed';

@Module({
  imports: [AccountsModule, AuthModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
