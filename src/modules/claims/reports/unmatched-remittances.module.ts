import { Module } from '@nestjs/common';
import { PolledReportsRepository } from './store/polled-reports.repository';
import { UnmatchedRemittances } from './domain/unmatched-remittances.service';

/** For the operator's CLI: the list without the claims module's queues and workers. */
@Module({
  providers: [PolledReportsRepository, UnmatchedRemittances],
  exports: [UnmatchedRemittances],
})
export class UnmatchedRemittancesModule {}
