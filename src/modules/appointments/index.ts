/**
 * The door of the appointments module: what other modules use of it. Another module imports from
 * '@/modules/appointments' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AppointmentsModule } from './appointments.module';
export { AppointmentsPagesModule } from './pages/appointments-pages.module';
