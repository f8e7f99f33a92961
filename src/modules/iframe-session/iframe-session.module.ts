import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { AuditModule } from '@/modules/audit';
import { IframeSessionController } from './api/iframe-session.controller';
import { IframeSessionService } from './domain/iframe-session.service';
import { IframeSessionsRepository } from './store/iframe-sessions.repository';

@Module({
  imports: [AccountsModule, AuditModule],
  controllers: [IframeSessionController],
  providers: [IframeSessionService, IframeSessionsRepository],
  exports: [IframeSessionService],
})
export class IframeSessionModule {}
