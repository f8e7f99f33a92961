import { Module } from '@nestjs/common';
import { EstimatesModule } from '@/modules/estimates';
import { WebModule } from '@/modules/web';
import { QuotesModule } from '../quotes.module';
import { WebCounterController } from './counter.controller';

/** The Counter page of a check's person, and its printed quotes, on the web shell. */
@Module({
  imports: [QuotesModule, EstimatesModule, WebModule],
  controllers: [WebCounterController],
})
export class QuotesPagesModule {}
