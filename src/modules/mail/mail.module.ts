import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@/modules/audit';
import { MailMessage } from './mail-message.entity';
import { MailMessagesRepository } from './mail-messages.repository';
import { MAIL_QUEUE, MailQueue } from './mail.queue';
import { MailProcessor } from './mail.processor';
import { MailPurger } from './mail-purger';
import { MailService } from './mail.service';
import { MailTransport } from './mail.transport';

@Module({
  imports: [
    AuditModule,
    TypeOrmModule.forFeature([MailMessage]),
    BullModule.registerQueue({ name: MAIL_QUEUE }),
  ],
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
