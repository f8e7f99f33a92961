import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '@/platform/kernel/clock';
import { AccountsModule } from '@/modules/accounts';
import { EligibilityModule } from '@/modules/eligibility';
import { WebhooksModule } from '@/modules/webhooks';
import { PatientsModule } from '@/modules/patients';
import { WebModule } from '@/modules/web';
import { AppointmentPolicyController } from './api/appointment-policy.controller';
import { AppointmentsController } from './api/appointments.controller';
import { AppointmentChecks } from './domain/appointment-checks';
import { AppointmentEvents } from './domain/appointment-events';
import { AppointmentIntake } from './domain/appointment-intake';
import { AppointmentChecksLoop } from './jobs/appointment-checks.loop';
import { AppointmentChecksRepository } from './store/appointment-checks.repository';
import { AppointmentPolicies } from './domain/appointment-policies.service';
import { AppointmentsService } from './domain/appointments.service';
import { AppointmentsSync } from './domain/appointments-sync';
import { AppointmentPolicy } from './store/appointment-policy.entity';
import { Appointment } from './store/appointment.entity';
import { AppointmentPoliciesRepository } from './store/appointment-policies.repository';
import { AppointmentsRepository } from './store/appointments.repository';
import { WebScheduleController } from './pages/web-schedule.controller';

@Module({
  imports: [
    TypeOrmModule.forFeature([Appointment, AppointmentPolicy]),
    AccountsModule,
    PatientsModule,
    EligibilityModule,
    WebhooksModule,
    WebModule,
  ],
  // The Schedule page (docs/api.md, Appointments) is this module's, beside its API.
  controllers: [AppointmentsController, AppointmentPolicyController, WebScheduleController],
  providers: [
    AppointmentsRepository,
    AppointmentPoliciesRepository,
    AppointmentIntake,
    AppointmentsService,
    AppointmentsSync,
    AppointmentPolicies,
    // The checks (docs/api.md, Appointments): the schedule, the answers, their webhooks.
    Clock,
    AppointmentChecksRepository,
    AppointmentChecks,
    AppointmentEvents,
    AppointmentChecksLoop,
  ],
  exports: [AppointmentsService, AppointmentPolicies, AppointmentChecks],
})
export class AppointmentsModule {}
