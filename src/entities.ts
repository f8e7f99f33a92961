import { Account } from '@/modules/accounts/store/account.entity';
import { Location } from '@/modules/accounts/store/location.entity';
import { RecoveryCode } from '@/modules/accounts/store/recovery-code.entity';
import { UserToken } from '@/modules/accounts/store/user-token.entity';
import { User } from '@/modules/accounts/store/user.entity';
import { ApiKey } from '@/modules/auth/store/api-key.entity';
import { AuditEvent } from '@/modules/audit/store/audit-event.entity';
import { EligibilityBatch } from '@/modules/eligibility/batches/store/batch.entity';
import { EligibilityRequest } from '@/modules/eligibility/store/eligibility-request.entity';
import {
  EligibilityPerson,
  EligibilityResult,
} from '@/modules/eligibility/store/eligibility-result.entity';
import { ClaimServiceLine } from '@/modules/claims/store/claim-service-line.entity';
import { Claim } from '@/modules/claims/store/claim.entity';
import { ClaimReport } from '@/modules/claims/reports/store/claim-report.entity';
import { Remittance } from '@/modules/claims/reports/store/remittance.entity';
import { MailMessage } from '@/modules/mail/store/mail-message.entity';
import { Patient } from '@/modules/patients/store/patient.entity';
import { PatientBenefitEntry } from '@/modules/patients/store/benefit-entry.entity';
import { Appointment } from '@/modules/appointments/store/appointment.entity';
import { AppointmentPolicy } from '@/modules/appointments/store/appointment-policy.entity';
import { Quote } from '@/modules/quotes/store/quote.entity';
import { PlanDesign } from '@/modules/verification/store/plan-design.entity';
import { VerificationTask } from '@/modules/verification/store/verification-task.entity';
import { Webhook, WebhookAttempt, WebhookDelivery } from '@/modules/webhooks/store/webhook.entity';

/**
 * Every entity, for the app and the migration CLI; from the entity files, not the doors: a door
 * loads the configuration module, which wants settings the migration Job does not have.
 */
export const entities = [
  Account,
  Location,
  User,
  RecoveryCode,
  UserToken,
  ApiKey,
  AuditEvent,
  EligibilityBatch,
  EligibilityRequest,
  EligibilityResult,
  EligibilityPerson,
  Patient,
  PatientBenefitEntry,
  Appointment,
  AppointmentPolicy,
  Claim,
  ClaimServiceLine,
  ClaimReport,
  Remittance,
  MailMessage,
  VerificationTask,
  PlanDesign,
  Quote,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
];
