/**
 * The door of the appointments module: what other modules use of it. Another module imports from
 * '@/modules/appointments' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AppointmentsModule } from './appointments.module';
export { AppointmentsPagesModule } from './pages/appointments-pages.module';
// The worklist, which the MCP door's schedule_at_risk tool reads (docs/api.md, MCP).
export { AppointmentsService } from './domain/appointments.service';
export { keyActor } from './domain/appointment-access';
export { ListAppointmentsQuery } from './api/dto/list-appointments.query';
