import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { WebModule } from '@/modules/web';
import { ClaimsModule } from '../claims.module';
import { WebClaimsController } from './web-claims.controller';
import { WebRemittancesController } from './web-remittances.controller';

/** The claims and remittances pages, on the web shell. */
@Module({
  imports: [ClaimsModule, AccountsModule, WebModule],
  controllers: [WebClaimsController, WebRemittancesController],
})
export class ClaimsPagesModule {}
