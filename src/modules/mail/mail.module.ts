import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AuditModule } from '@/modules/audit';
import { MailMessagesRepository } from './store/mail-messages.repository';
import { MAIL_QUEUE, MailQueue } from './jobs/mail.queue';
import { MailProcessor } from './jobs/mail.processor';
import { MailPurger } from './domain/mail-purger';
import { MailService } from './domain/mail.service';
import { MailTransport } from './domain/mail.transport';

@Module({
  imports: [AuditModule, BullModule.registerQueue({ name: MAIL_QUEUE })],
  providers: [
    MailService,
    MailMessagesRepository,
    MailQueue,
    MailTransport,
    MailProcessor,
    MailPurger,
  ],
  exports: [MailService],
})
export class MailModule {}
