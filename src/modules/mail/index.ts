/**
 * The door of the mail module: what other modules use of it. Another module imports from
 * '@/modules/mail' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { MailModule } from './mail.module';
export { MAIL_LINK, MailService } from './domain/mail.service';
