import { Module } from '@nestjs/common';
import { WebModule } from '@/modules/web';
import { VerificationModule } from '../verification.module';
import { WebVerificationListsController } from './web-verification-lists.controller';
import { WebVerificationsController } from './web-verifications.controller';

/** The verification worklists and a task's page, on the web shell. */
@Module({
  imports: [VerificationModule, WebModule],
  controllers: [WebVerificationListsController, WebVerificationsController],
})
export class VerificationPagesModule {}
