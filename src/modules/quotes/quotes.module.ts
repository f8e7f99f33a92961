import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { AuditModule } from '@/modules/audit';
import { RateLimitModule } from '@/modules/auth';
import { EligibilityModule } from '@/modules/eligibility';
import { EstimatesModule } from '@/modules/estimates';
import { QuotesController } from './api/quotes.controller';
import { QuotePurger } from './domain/quote-purger';
import { QuotesService } from './domain/quotes.service';
import { QuotesRepository } from './store/quotes.repository';

@Module({
  imports: [EligibilityModule, EstimatesModule, AccountsModule, AuditModule, RateLimitModule],
  controllers: [QuotesController],
  providers: [QuotesService, QuotesRepository, QuotePurger],
  // QuotesService for its pages (pages/quotes-pages.module.ts).
  exports: [QuotesService],
})
export class QuotesModule {}
