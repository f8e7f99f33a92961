import { Module } from '@nestjs/common';
import { RateLimitModule } from '@/modules/auth';
import { EligibilityModule } from '@/modules/eligibility';
import { EstimatesController } from './api/estimates.controller';
import { EstimatesService } from './domain/estimates.service';
import { NextEligibleController } from './api/next-eligible.controller';
import { NextEligibleService } from './domain/next-eligible.service';

@Module({
  imports: [EligibilityModule, RateLimitModule],
  controllers: [EstimatesController, NextEligibleController],
  providers: [EstimatesService, NextEligibleService],
  exports: [EstimatesService],
})
export class EstimatesModule {}
