import { Module } from '@nestjs/common';
import { RateLimitModule } from '@/modules/auth';
import { EligibilityModule } from '@/modules/eligibility';
import { WebModule } from '@/modules/web';
import { EstimatesController } from './api/estimates.controller';
import { EstimatesService } from './domain/estimates.service';
import { NextEligibleController } from './api/next-eligible.controller';
import { NextEligibleService } from './domain/next-eligible.service';
import { WebEstimatesController } from './pages/estimates.controller';

@Module({
  imports: [EligibilityModule, RateLimitModule, WebModule],
  controllers: [EstimatesController, NextEligibleController, WebEstimatesController],
  providers: [EstimatesService, NextEligibleService],
  exports: [EstimatesService],
})
export class EstimatesModule {}
