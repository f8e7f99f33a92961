/**
 * The door of the appointments module: what other modules use of it. Another module imports from
 * '@/modules/appointments' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AppointmentsModule } from './appointments.module';
export { AppointmentsService } from './domain/appointments.service';
export { AppointmentChecks } from './domain/appointment-checks';
export {
  EVENT_APPOINTMENT_CHECKED,
  EVENT_APPOINTMENT_COVERAGE_CHANGED,
} from './domain/appointment-events';
export {
  AppointmentPolicies,
  DEFAULT_APPOINTMENT_POLICY,
} from './domain/appointment-policies.service';
export { APPOINTMENT_STATUSES, COVERAGE_STATES } from './domain/appointment-words';
export type { AppointmentStatus, CoverageState } from './domain/appointment-words';
export type { Appointment, StoredCoverage, StoredPatient } from './store/appointment.entity';
export type { AppointmentPolicy } from './store/appointment-policy.entity';
