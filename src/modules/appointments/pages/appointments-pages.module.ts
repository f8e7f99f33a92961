import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { PatientsModule } from '@/modules/patients';
import { WebModule } from '@/modules/web';
import { AppointmentsModule } from '../appointments.module';
import { WebScheduleController } from './web-schedule.controller';

/** The Schedule page (docs/api.md, Appointments), on the web shell. */
@Module({
  imports: [AppointmentsModule, AccountsModule, PatientsModule, WebModule],
  controllers: [WebScheduleController],
})
export class AppointmentsPagesModule {}
