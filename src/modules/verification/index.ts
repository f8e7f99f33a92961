/**
 * The door of the verification module: what other modules use of it. Another module imports from
 * '@/modules/verification' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CompleteTaskDto, FailTaskDto, TaskNoteDto } from './dto/verification-input.dto';
export { webVerifier } from './pages/verification-page';
export { SearchTasks } from './search-tasks';
export type { TaskAnswer } from './search-tasks.repository';
export { TaskSql } from './task-sql';
export { FAIL_REASONS } from './task-codes';
export { TaskRequests } from './task-requests.port';
export type { TaskRequestSql, TaskRequestsPort } from './task-requests.port';
export { taskView } from './task-view';
export type { TaskView, TaskViewRow } from './task-view';
export type { FailReason, TaskState } from './verification-task.entity';
export { VerificationTasks } from './verification-tasks.service';
export type { Verifier } from './verification-tasks.service';
export { VerificationModule } from './verification.module';
export { plansFromVerified } from './verified-plans';
