import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { WebModule } from '@/modules/web';
import { PatientsModule } from '../patients.module';
import { WebPatientsController } from './web-patients.controller';

/** The patients pages, on the web shell. */
@Module({
  imports: [PatientsModule, AccountsModule, WebModule],
  controllers: [WebPatientsController],
})
export class PatientsPagesModule {}
