import { Module } from '@nestjs/common';
import { EligibilityModule } from '@/modules/eligibility';
import { WebModule } from '@/modules/web';
import { EstimatesController } from './api/estimates.controller';
import { EstimatesService } from './domain/estimates.service';
import { WebEstimatesController } from './pages/estimates.controller';

@Module({
  imports: [EligibilityModule, WebModule],
  controllers: [EstimatesController, WebEstimatesController],
  providers: [EstimatesService],
  exports: [EstimatesService],
})
export class EstimatesModule {}
