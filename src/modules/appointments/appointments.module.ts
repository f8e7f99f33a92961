import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '@/platform/kernel/clock';
import { AccountsModule } from '@/modules/accounts';
import { AuditModule } from '@/modules/audit';
import { EligibilityModule } from '@/modules/eligibility';
import { WebhooksModule } from '@/modules/webhooks';
import { PatientsModule } from '@/modules/patients';
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

@Module({
  imports: [
    TypeOrmModule.forFeature([Appointment, AppointmentPolicy]),
    AccountsModule,
    AuditModule,
    PatientsModule,
    EligibilityModule,
    WebhooksModule,
  ],
  controllers: [AppointmentsController, AppointmentPolicyController],
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
  // AppointmentsSync and the Clock for the Schedule page (pages/appointments-pages.module.ts).
  exports: [AppointmentsService, AppointmentPolicies, AppointmentChecks, AppointmentsSync, Clock],
})
export class AppointmentsModule {}
