import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import type { Subscriber } from '@/lib/person';
import { EVIDENCE_SOURCES, FAIL_REASONS, TASK_STATES } from '../../store/verification-task.entity';

/** OpenAPI descriptions of the verification answers (docs/api.md, Insurers and assisted verification); taskView renders them. */

class SubscriberDoc implements Subscriber {
  @ApiProperty({ example: 'Luis' }) first_name: string;
  @ApiProperty({ example: 'Garcia' }) last_name: string;
  @ApiField('date', { example: '1982-03-02' }) dob: string;
  @ApiNullable('string', { example: 'VSP0099812' }) member_id: string | null;
}

class TaskPatientDoc {
  @ApiNullable('string', {
    example: 'Maria',
    description: 'null once erased (PHI_RETENTION_DAYS).',
  })
  first_name: string | null;
  @ApiNullable('string', { example: 'Garcia' }) last_name: string | null;
  @ApiNullable('date', { example: '1984-06-15' }) dob: string | null;
  @ApiNullable('string', { example: '78701' }) zipcode: string | null;
  @ApiNullable('string', { example: 'VSP0099812' }) member_id: string | null;
  @ApiNullable('string', { example: '6789' }) ssn_last_four: string | null;
  @ApiProperty({
    type: SubscriberDoc,
    nullable: true,
    description: 'When the patient is a dependent.',
  })
  subscriber: SubscriberDoc | null;
}

class TaskLocationDoc {
  @ApiProperty({ example: 'LOC7QK2M9TX' }) code: string;
  @ApiProperty({ example: 'Main Street Eye Care' }) title: string;
  @ApiNullable('string', { example: '1234567893' }) npi: string | null;
}

class TaskLeaseDoc {
  @ApiProperty({ example: 'api_key:vk_3f9a', description: 'Who holds the task.' }) holder: string;
  @ApiField('date-time', { example: '2026-11-24T15:34:00.000Z' }) until: string;
}

class EvidenceDoc {
  @ApiField('string', { enum: EVIDENCE_SOURCES, example: 'phone' }) source: string;
  @ApiNullable('string', { example: 'CALL-20261124-0042' }) reference_number: string | null;
  @ApiNullable('string', { example: 'Dana at VSP provider services' })
  representative: string | null;
  @ApiField('date-time', { example: '2026-11-24T15:04:00Z' }) checked_at: string;
}

class TaskHistoryDoc {
  @ApiField('date-time', { example: '2026-11-24T15:04:00.000Z' }) at: string;
  @ApiField('string', { enum: TASK_STATES, example: 'in_progress' }) state: string;
  @ApiProperty({ example: 'user:frontdesk@example.com' }) actor: string;
  @ApiNullable('string', { example: 'claimed' }) detail: string | null;
}

export class VerificationTaskResponse {
  @ApiProperty({ format: 'uuid', example: '0b8f3c2d-5b0c-4c53-9a55-6f9e1d2a0f1b' }) id: string;
  @ApiField('string', {
    enum: TASK_STATES,
    example: 'queued',
    description: 'A task whose lease ran out is `queued` again.',
  })
  state: string;
  @ApiProperty({ example: 'insurer:vision:vsp' }) insurer_code: string;
  @ApiProperty({ example: 'VSP Vision Care' }) insurer_name: string;
  @ApiNullable('string', {
    example: 'https://www.eyefinity.com/',
    description: "The payer's provider portal.",
  })
  portal_url: string | null;
  @ApiProperty({ example: 'visit-2026-11-24-0042' }) request_uid: string;
  @ApiProperty({ type: TaskPatientDoc, description: 'The patient as the search asked.' })
  patient: TaskPatientDoc;
  @ApiProperty({ type: TaskLocationDoc, nullable: true }) location: TaskLocationDoc | null;
  @ApiField('date-time', { example: '2026-11-24T19:04:00.000Z' }) due_by: string;
  @ApiProperty({ example: false, description: 'Open and past `due_by`.' }) overdue: boolean;
  @ApiProperty({ type: TaskLeaseDoc, nullable: true }) lease: TaskLeaseDoc | null;
  @ApiNullable('string', { enum: FAIL_REASONS, example: null }) failure_reason: string | null;
  @ApiNullable('string', {
    example: null,
    description: "The question of `needs_info`, the practice's answer, or a failure's detail.",
  })
  detail: string | null;
  @ApiProperty({ type: EvidenceDoc, nullable: true }) evidence: EvidenceDoc | null;
  @ApiField('date-time', { example: '2026-11-24T15:04:00.000Z' }) created_at: string;
  @ApiField('date-time', { example: '2026-11-24T15:04:00.000Z' }) updated_at: string;
  @ApiProperty({ type: [TaskHistoryDoc] }) history: TaskHistoryDoc[];
}

export class VerificationTaskListResponse {
  @ApiProperty({ type: [VerificationTaskResponse] }) result: VerificationTaskResponse[];
  @NextCursorDoc(null, '?cursor=')
  next_cursor: string | null;
}

export class InsurerCredentialsResponse {
  @ApiProperty({ example: 'mainstreet-eyecare' }) username: string;
  @ApiProperty({ example: 'correct horse battery staple' }) password: string;
}
