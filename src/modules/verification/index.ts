/**
 * The door of the verification module: what other modules use of it. Another module imports from
 * '@/modules/verification' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { TaskNoteDto } from './api/dto/verification-input.dto';
export { webVerifier } from './pages/verification-page';
export { SearchTasks } from './domain/search-tasks';
export type { TaskAnswer } from './store/search-tasks.repository';
export { TaskSql } from './store/task-sql';
export { EVENT_VERIFICATION_TASK_CREATED } from './domain/task-events';
export { TaskRequests } from './domain/task-requests.port';
export type { TaskRequestSql, TaskRequestsPort } from './domain/task-requests.port';
export type { TaskView } from './domain/task-view';
export type { FailReason } from './store/verification-task.entity';
export { PlanDesigns } from './domain/plan-designs.service';
export { VerificationTasks } from './domain/verification-tasks.service';
export { VerificationModule } from './verification.module';
export { VerificationPagesModule } from './pages/verification-pages.module';
