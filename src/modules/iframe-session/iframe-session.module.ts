import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { AuditModule } from '@/modules/audit';
import { IframeSessionController } from './iframe-session.controller';
import { IframeSessionService } from './iframe-session.service';
import { IframeSessionsRepository } from './iframe-sessions.repository';

@Module({
  imports: [AccountsModule, AuditModule],
  controllers: [IframeSessionController],
  providers: [IframeSessionService, IframeSessionsRepository],
  exports: [IframeSessionService],
})
export class IframeSessionModule {}
