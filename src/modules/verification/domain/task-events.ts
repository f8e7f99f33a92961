/** The webhook events of the `verification` topic (docs/api.md, Webhooks): the task's GET body. */
export const EVENT_VERIFICATION_TASK_CREATED = 'verification_task.created';
export const EVENT_VERIFICATION_TASK_OVERDUE = 'verification_task.overdue';
