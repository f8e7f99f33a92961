import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { staticSettings } from '@/config/env';
import { AccountsModule } from '@/modules/accounts/accounts.module';
import { InsurersModule } from '@/modules/insurers/insurers.module';
import { EligibilityController } from './eligibility.controller';
import { EligibilityMaintenance } from './eligibility.maintenance';
import { EligibilityProcessor } from './eligibility.processor';
import { SEARCH_QUEUE } from './eligibility.queue';
import { EligibilityService } from './eligibility.service';

@Module({
  imports: [
    BullModule.registerQueue({
      name: SEARCH_QUEUE,
      // A killed worker's active job is taken over after a few seconds, not the default 30.
      settings: { lockDuration: 15_000, stalledInterval: 5_000, maxStalledCount: 3 },
    }),
    AccountsModule,
    InsurersModule,
  ],
  controllers: [EligibilityController],
  // ROLE=api serves HTTP only: no processor, no maintenance loop.
  providers: [
    EligibilityService,
    ...(staticSettings.runsWorkers() ? [EligibilityProcessor, EligibilityMaintenance] : []),
  ],
  exports: [EligibilityService],
})
export class EligibilityModule {}
