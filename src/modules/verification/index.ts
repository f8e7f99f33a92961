/**
 * The door of the verification module: what other modules use of it. Another module imports from
 * '@/modules/verification' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CompleteTaskDto, FailTaskDto, TaskNoteDto } from './api/dto/verification-input.dto';
export { webVerifier } from './pages/verification-page';
export { SearchTasks } from './domain/search-tasks';
export type { TaskAnswer } from './store/search-tasks.repository';
export { TaskSql } from './store/task-sql';
export { FAIL_REASONS } from './domain/task-codes';
export {
  EVENT_VERIFICATION_TASK_CREATED,
  EVENT_VERIFICATION_TASK_OVERDUE,
} from './domain/task-events';
export { TaskRequests } from './domain/task-requests.port';
export type { TaskRequestSql, TaskRequestsPort } from './domain/task-requests.port';
export { taskView } from './domain/task-view';
export type { TaskView, TaskViewRow } from './domain/task-view';
export type { FailReason, TaskState } from './store/verification-task.entity';
export { VerificationTasks } from './domain/verification-tasks.service';
export type { Verifier } from './domain/verification-tasks.service';
export { VerificationModule } from './verification.module';
export { plansFromVerified } from './domain/verified-plans';
