import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '@/modules/accounts';
import { PatientsModule } from '@/modules/patients';
import { AppointmentPolicyController } from './api/appointment-policy.controller';
import { AppointmentsController } from './api/appointments.controller';
import { AppointmentIntake } from './domain/appointment-intake';
import { AppointmentPolicies } from './domain/appointment-policies.service';
import { AppointmentsService } from './domain/appointments.service';
import { AppointmentsSync } from './domain/appointments-sync';
import { AppointmentPolicy } from './store/appointment-policy.entity';
import { Appointment } from './store/appointment.entity';
import { AppointmentPoliciesRepository } from './store/appointment-policies.repository';
import { AppointmentsRepository } from './store/appointments.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([Appointment, AppointmentPolicy]),
    AccountsModule,
    PatientsModule,
  ],
  controllers: [AppointmentsController, AppointmentPolicyController],
  providers: [
    AppointmentsRepository,
    AppointmentPoliciesRepository,
    AppointmentIntake,
    AppointmentsService,
    AppointmentsSync,
    AppointmentPolicies,
  ],
  exports: [AppointmentsService, AppointmentPolicies],
})
export class AppointmentsModule {}
