import { Module } from '@nestjs/common';
import { AuditModule } from '@/modules/audit';
import { WebModule } from '@/modules/web';
import { InsurersModule } from '../insurers.module';
import { WebInsurersController } from './web-insurers.controller';

/** The insurers and insurer passwords pages, on the web shell. */
@Module({
  imports: [InsurersModule, AuditModule, WebModule],
  controllers: [WebInsurersController],
})
export class InsurersPagesModule {}
