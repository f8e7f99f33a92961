import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailMessage } from './mail-message.entity';
import { MailMessagesRepository } from './mail-messages.repository';
import { MAIL_QUEUE, MailQueue } from './mail.queue';
import { MailProcessor } from './mail.processor';
import { MailService } from './mail.service';
import { MailTransport } from './mail.transport';

@Module({
  imports: [
    TypeOrmModule.forFeature([MailMessage]),
    BullModule.registerQueue({ name: MAIL_QUEUE }),
  ],
  providers: [MailService, MailMessagesRepository, MailQueue, MailTransport, MailProcessor],
  exports: [MailService],
})
export class MailModule {}
