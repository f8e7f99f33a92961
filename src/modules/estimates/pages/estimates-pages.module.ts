import { Module } from '@nestjs/common';
import { WebModule } from '@/modules/web';
import { EstimatesModule } from '../estimates.module';
import { WebEstimatesController } from './estimates.controller';

/** A person's estimate page under a check's result, on the web shell. */
@Module({
  imports: [EstimatesModule, WebModule],
  controllers: [WebEstimatesController],
})
export class EstimatesPagesModule {}
